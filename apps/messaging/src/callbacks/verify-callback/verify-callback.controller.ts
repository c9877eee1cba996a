import { JsonApiException } from '@cms/http';
import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { ChannelCredentials } from '../../channels/channel-credentials';
import type { ChannelEntity } from '../../channels/channel.entity';
import { ChannelRepository } from '../../channels/channel.repository';
import { isPhoneChannel } from '../../suppressions/suppression-address';
import type { CallbackRequest } from '../../providers/provider';
import { ProviderAdapters } from '../../providers/provider-adapters';
import { CallbackVerificationBody } from './callback-verification.body';

export type VerificationAnswer =
  | { data: { workspace_id: number; channel_id: number; inbound_messages: number } }
  | { data: { handshake: string } };

const FORM = 'application/x-www-form-urlencoded';

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
    return {
      data: {
        workspace_id: Number(channel.workspaceId),
        channel_id: Number(channel.id),
        inbound_messages: this.inboundMessages(channel, request),
      },
    };
  }

  /**
   * How many inbound messages the callback holds: the gateway mints a contact id for each, which an
   * unknown sender on a phone channel is created under. Read as the callback's decision will read it.
   */
  private inboundMessages(channel: ChannelEntity, request: CallbackRequest): number {
    if (!isPhoneChannel(channel.type)) return 0;
    const get = request.method === 'GET';
    try {
      return this.adapters
        .of(channel.provider)
        .parseCallback(channel, {
          contentType: get
            ? FORM
            : (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase(),
          body: get ? Buffer.from(new URLSearchParams(request.query).toString()) : request.body,
        })
        .filter((event) => event.kind === 'inbound').length;
    } catch {
      // A body the decision cannot read either records nothing: nobody is created from it.
      return 0;
    }
  }
}
