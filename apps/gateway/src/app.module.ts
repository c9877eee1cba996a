import { HealthModule } from '@cms/http';
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

import { ApiKeyAuthenticator } from './auth/api-key.authenticator';
import { PublicApiGuard } from './auth/public-api.guard';

import { GATEWAY_CONFIG, type GatewayConfig } from './config';
import { ContactsApiController } from './contacts-api/contacts-api.controller';
import { RequestDecider } from './decisions/request-decider';
import { WebhookEndpointsApiController } from './webhooks-api/webhook-endpoints-api.controller';
import { InfrastructureModule, REDIS } from './infrastructure/infrastructure.module';
import { IntegrationRequestsConsumer } from './integrations/integration-requests.consumer';
import { IntegrationsController } from './integrations/integrations.controller';
import { InboundIntegrations } from './integrations/receive-webhook/inbound-integrations';
import { InboundWebhookController } from './integrations/receive-webhook/inbound-webhook.controller';
import { UpstreamProxy } from './proxy/upstream.proxy';
import { RateLimitService } from './rate-limit/rate-limit.service';
import { WritePathService } from './write-path/write-path.service';
import { AdminController } from './workspaces/admin.controller';
import { AdminGuard } from './workspaces/admin.guard';
import { WorkspaceRequestsConsumer } from './workspaces/workspace-requests.consumer';

@Module({})
export class AppModule {
  static forRoot(config: GatewayConfig, logger: Logger): DynamicModule {
    return {
      module: AppModule,
      imports: [InfrastructureModule.forRoot(config, logger), HealthModule.forRoot({ service: 'gateway' })],
      controllers: [
        AdminController,
        ContactsApiController,
        WebhookEndpointsApiController,
        WorkspaceRequestsConsumer,
        IntegrationsController,
        IntegrationRequestsConsumer,
        InboundWebhookController,
      ],
      providers: [
        RequestDecider,
        WritePathService,
        InboundIntegrations,
        AdminGuard,
        ApiKeyAuthenticator,
        UpstreamProxy,
        {
          provide: RateLimitService,
          inject: [REDIS, GATEWAY_CONFIG],
          useFactory: (redis: Redis, gatewayConfig: GatewayConfig) =>
            new RateLimitService(redis, {
              ...gatewayConfig.rateLimit,
              keyPrefix: `rl:${gatewayConfig.databaseSchema}`,
            }),
        },
        { provide: APP_GUARD, useClass: PublicApiGuard },
      ],
    };
  }

  /** `main.js rebuild`: the request consumers' handlers and the connections they need, no HTTP routes. */
  static forRebuild(config: GatewayConfig, logger: Logger): DynamicModule {
    return {
      module: AppModule,
      imports: [InfrastructureModule.forRoot(config, logger), HealthModule.forRoot({ service: 'gateway' })],
      controllers: [WorkspaceRequestsConsumer, IntegrationRequestsConsumer],
      providers: [RequestDecider],
    };
  }
}
