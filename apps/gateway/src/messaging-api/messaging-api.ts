import { encryptSecret, type RequestPayloads, type RequestType } from '@cms/contracts';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import type { Principal } from '../auth/principal';
import type { PublicRouteRule } from '../auth/public-route.decorator';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { queryOf, UpstreamProxy } from '../proxy/upstream.proxy';
import { WritePathService } from '../write-path/write-path.service';

/** Channels, templates and messages are API paths: pro and above (extensions §3), each by its permission. */
export const MESSAGING_RULES = {
  read: { permission: 'read', bucket: 'api', feature: 'api' },
  create: { permission: 'create', bucket: 'api', feature: 'api' },
  update: { permission: 'update', bucket: 'api', feature: 'api' },
  delete: { permission: 'delete', bucket: 'api', feature: 'api' },
} as const satisfies Record<string, PublicRouteRule>;

/** The messaging service, as the catalog names it among the gateway's upstreams. */
export const MESSAGING = 'messaging';

/**
 * What the channel, template and message routes share: writes become requests the messaging service
 * decides (answered with its outcome), reads go to its internal port, and channel credentials travel
 * only sealed with SECRETS_KEY.
 */
@Injectable()
export class MessagingApi {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(WritePathService) private readonly writePath: WritePathService,
    @Inject(UpstreamProxy) private readonly proxy: UpstreamProxy,
  ) {}

  /** The credentials' JSON, sealed: the log and the service's tables never hold them in clear. */
  seal(credentials: Record<string, unknown>): string {
    return encryptSecret(JSON.stringify(credentials), this.config.secretsKey);
  }

  async write<T extends RequestType>(
    reply: FastifyReply,
    caller: Principal,
    type: T,
    data: RequestPayloads[T],
  ): Promise<unknown> {
    const answer = await this.writePath.submit({ type, workspaceId: caller.workspaceId, data });
    void reply.status(answer.status);
    return answer.resource === undefined ? undefined : { data: answer.resource };
  }

  /** GET `internal/v1/<path>` of the messaging service with the request's query. */
  async read(
    reply: FastifyReply,
    caller: Principal,
    path: string,
    request: FastifyRequest,
  ): Promise<unknown> {
    const answer = await this.proxy.get(MESSAGING, path, queryOf(request), caller.workspaceId);
    void reply.status(answer.status);
    return answer.body;
  }

  /** POST `internal/v1/<path>` of the messaging service: a read that takes a body. */
  async readWith(reply: FastifyReply, caller: Principal, path: string, body: unknown): Promise<unknown> {
    const answer = await this.proxy.post(MESSAGING, path, body, caller.workspaceId);
    void reply.status(answer.status);
    return answer.body;
  }
}
