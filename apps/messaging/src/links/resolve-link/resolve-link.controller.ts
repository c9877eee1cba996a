import { JsonApiException } from '@cms/http';
import { Controller, Get, Inject, Param } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { isLinkToken, tokenHash } from '../link-rewriting';

export interface ResolvedLink {
  data: { workspace_id: number; message_id: string; link_index: number; url: string };
}

/**
 * `GET /internal/v1/links/<token>`: where a tracked link goes, for the gateway's `GET /l/<token>`
 * (extensions §10). The token names the link (of whatever workspace); it is looked up by its hash and
 * never logged. The answer never changes for a token, so the gateway may keep it as long as it likes.
 */
@Controller('internal/v1/links')
export class ResolveLinkController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  @Get(':token')
  async resolve(@Param('token') token: string): Promise<ResolvedLink> {
    const [row] = isLinkToken(token)
      ? ((await this.dataSource.manager.query(
          'SELECT workspace_id, message_id, link_index, url FROM message_links WHERE token_hash = $1',
          [tokenHash(token)],
        )) as Array<Record<string, unknown>>)
      : [];
    if (row === undefined) throw JsonApiException.notFound('No tracked link has this address.');
    return {
      data: {
        workspace_id: Number(row['workspace_id']),
        message_id: row['message_id'] as string,
        link_index: Number(row['link_index']),
        url: row['url'] as string,
      },
    };
  }
}
