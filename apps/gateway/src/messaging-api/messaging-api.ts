import { encryptSecret } from '@cms/contracts';
import { Inject, Injectable } from '@nestjs/common';

import type { PublicRouteRule } from '../auth/public-route.decorator';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { ServiceApi } from '../proxy/service-api';
import { UpstreamProxy } from '../proxy/upstream.proxy';
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
export class MessagingApi extends ServiceApi {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(WritePathService) writePath: WritePathService,
    @Inject(UpstreamProxy) proxy: UpstreamProxy,
  ) {
    super(MESSAGING, writePath, proxy);
  }

  /** The credentials' JSON, sealed: the log and the service's tables never hold them in clear. */
  seal(credentials: Record<string, unknown>): string {
    return encryptSecret(JSON.stringify(credentials), this.config.secretsKey);
  }
}
