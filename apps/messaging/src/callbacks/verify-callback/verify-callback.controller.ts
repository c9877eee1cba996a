import { JsonApiException } from '@cms/http';
import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { ChannelCredentials } from '../../channels/channel-credentials';
import { ChannelRepository } from '../../channels/channel.repository';
import type { CallbackRequest } from '../../providers/provider';
import { ProviderAdapters } from '../../providers/provider-adapters';
import { CallbackVerificationBody } from './callback-verification.body';

export type VerificationAnswer =
  { data: { workspace_id: number; channel_id: number } } | { data: { handshake: string } };

/** Only strings pass: what the gateway sends is strings, anything else is not the provider's. */
function strings(values: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/**
 * `POST /internal/v1/provider-callbacks/verify` (extensions §9, Provider callbacks): the gateway asks
 * whether a request to `/webhook/provider/<token>` is the provider's, before anything is recorded. The
 * token names the channel (of whatever workspace); its adapter checks the provider's signature with the
 * channel's credentials. A sandbox channel takes no provider callbacks (its inbound messages come
 * through `/sandbox/inbound`): its token is answered as unknown. Neither the token nor a credential is
 * ever logged or answered.
 */
@Controller('internal/v1/provider-callbacks')
export class VerifyCallbackController {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(ChannelCredentials) private readonly credentials: ChannelCredentials,
    @Inject(ProviderAdapters) private readonly adapters: ProviderAdapters,
  ) {}

  @Post('verify')
  @HttpCode(200)
  async verify(@Body() body: CallbackVerificationBody): Promise<VerificationAnswer> {
    const channel = await new ChannelRepository(this.dataSource.manager).findByCallbackToken(body.token);
    if (channel === null || channel.provider === 'sandbox') {
      throw JsonApiException.notFound('No channel has this callback URL.');
    }
    const request: CallbackRequest = {
      method: body.method,
      url: body.url,
      query: strings(body.query),
      headers: strings(body.headers),
      body: Buffer.from(body.body_base64, 'base64'),
    };
    const verdict = this.adapters
      .of(channel.provider)
      .verifyCallback(this.credentials.connection(channel), request);
    if ('handshake' in verdict) return { data: { handshake: verdict.handshake } };
    if (!verdict.ok) throw JsonApiException.of(verdict.status, `${verdict.reason}.`);
    return { data: { workspace_id: Number(channel.workspaceId), channel_id: Number(channel.id) } };
  }
}
