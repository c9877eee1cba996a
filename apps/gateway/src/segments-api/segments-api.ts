import type { RequestPayloads, RequestType } from '@cms/contracts';
import { JsonApiException } from '@cms/http';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

import type { Principal } from '../auth/principal';
import { unknownContacts } from '../contacts-api/contacts-api';

import { ServiceApi } from '../proxy/service-api';
import { UpstreamProxy } from '../proxy/upstream.proxy';
import { WritePathService } from '../write-path/write-path.service';

/** The segments service, as the catalog names it among the gateway's upstreams. */
export const SEGMENTS = 'segments';

/** Audiences, their preview and imports (extensions §11): decided and read by the segments service. */
@Injectable()
export class SegmentsApi extends ServiceApi {
  constructor(
    @Inject(WritePathService) writePath: WritePathService,
    @Inject(UpstreamProxy) proxy: UpstreamProxy,
  ) {
    super(SEGMENTS, writePath, proxy);
  }

  /**
   * Refuses (422, at each id's place in its list) contact ids that name no contact of the workspace,
   * as the contacts service holds them: asked before the write enters the log, so that deciding it
   * reads nothing another topic feeds and a rebuild decides it the same way. Contacts are never
   * removed, so an id known now stays known.
   */
  async contactsMustExist(
    caller: Principal,
    lists: Partial<Record<'include_contact_ids' | 'exclude_contact_ids', number[] | null>>,
  ): Promise<void> {
    const ids = [...new Set([...(lists.include_contact_ids ?? []), ...(lists.exclude_contact_ids ?? [])])];
    if (ids.length === 0) return;
    const unknown = await unknownContacts(this.proxy, caller.workspaceId, ids);
    if (unknown.size === 0) return;
    const fields = ['include_contact_ids', 'exclude_contact_ids'] as const;
    const issues = fields.flatMap((field) =>
      (lists[field] ?? []).flatMap((id, index) =>
        unknown.has(id)
          ? [
              {
                detail: `Contact ${id} was not found.`,
                source: { pointer: `/data/attributes/${field}/${index}` },
              },
            ]
          : [],
      ),
    );
    throw JsonApiException.validation(issues.slice(0, 100));
  }

  /**
   * A write answered with the audience as a read shows it (with its `size`, which the service counts
   * as of the read): the outcome carries the audience without it. Should the read fail, the outcome's
   * audience is the answer; the write happened either way.
   */
  async writeAudience<T extends RequestType>(
    reply: FastifyReply,
    caller: Principal,
    type: T,
    data: RequestPayloads[T],
    audienceId: number,
  ): Promise<unknown> {
    const answer = await this.writePath.submit({ type, workspaceId: caller.workspaceId, data });
    void reply.status(answer.status);
    if (answer.resource === undefined) return undefined;
    if (answer.status !== 200 && answer.status !== 201) return { data: answer.resource };
    const read = await this.proxy
      .get(SEGMENTS, `audiences/${audienceId}`, '', caller.workspaceId)
      .catch(() => undefined);
    return read?.status === 200 ? read.body : { data: answer.resource };
  }
}
