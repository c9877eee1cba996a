import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { Redis } from 'ioredis';

import { ApiKeyAuthenticator } from '../auth/api-key.authenticator';
import { PublicApiGuard } from '../auth/public-api.guard';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { ContactsApi } from '../contacts-api/contacts-api';
import { ContactsApiController } from '../contacts-api/contacts-api.controller';
import { IntegrationsController } from '../integrations/integrations.controller';
import { InboundIntegrations } from '../integrations/receive-webhook/inbound-integrations';
import { InboundWebhookController } from '../integrations/receive-webhook/inbound-webhook.controller';
import { AlertsApiController } from '../messaging-api/alerts-api.controller';
import { ClickRecorder } from '../links/click-recorder';
import { LinkRedirectController } from '../links/link-redirect.controller';
import { LinkResolver } from '../links/link-resolver';
import { ChannelsApiController } from '../messaging-api/channels-api.controller';
import { MessagesApiController } from '../messaging-api/messages-api.controller';
import { KnownContacts } from '../messaging-api/known-contacts';
import { MessagingApi } from '../messaging-api/messaging-api';
import { SuppressionsApiController } from '../messaging-api/suppressions-api.controller';
import { TemplatesApiController } from '../messaging-api/templates-api.controller';
import { ProviderCallbackController } from '../provider-callbacks/provider-callback.controller';
import { UpstreamProxy } from '../proxy/upstream.proxy';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { AutomationsApi } from '../automations-api/automations-api';
import { OutcomesApiController } from '../automations-api/outcomes-api.controller';
import { WorkflowRunsApiController } from '../automations-api/workflow-runs-api.controller';
import { BotsApiController } from '../automations-api/bots-api.controller';
import { WorkflowsApiController } from '../automations-api/workflows-api.controller';
import { BroadcastsApi } from '../broadcasts-api/broadcasts-api';
import { NotificationSendsApiController } from '../broadcasts-api/notification-sends-api.controller';
import { NotificationsApiController } from '../broadcasts-api/notifications-api.controller';
import { AudiencesApiController } from '../segments-api/audiences-api.controller';
import { AudienceImportJobsController } from '../segments-api/audience-import-jobs.controller';
import { AudienceImportUploadController } from '../segments-api/audience-import-upload.controller';
import { SegmentsApi } from '../segments-api/segments-api';
import { WebhookEndpointsApiController } from '../webhooks-api/webhook-endpoints-api.controller';
import { AdminController } from '../workspaces/admin.controller';
import { AdminGuard } from '../workspaces/admin.guard';
import { CurrentKeyController } from '../workspaces/current-key.controller';
import { WritePathService } from '../write-path/write-path.service';
import { EDGE_CONNECTIONS, EdgeConnections, REDIS } from './edge-connections';

/**
 * The gateway's HTTP edge: the operator routes (/admin/v1, behind the admin token) and the public ones
 * (/api/v1 behind API keys, plans and rate limits; the inbound webhooks and providers' callbacks behind
 * their signatures). Writes become requests on the log and are answered with their outcomes; reads
 * are proxied to the owning service.
 */
@Module({
  controllers: [
    AdminController,
    CurrentKeyController,
    ContactsApiController,
    WebhookEndpointsApiController,
    IntegrationsController,
    InboundWebhookController,
    ChannelsApiController,
    TemplatesApiController,
    MessagesApiController,
    AlertsApiController,
    SuppressionsApiController,
    AudiencesApiController,
    WorkflowsApiController,
    BotsApiController,
    WorkflowRunsApiController,
    OutcomesApiController,
    NotificationsApiController,
    NotificationSendsApiController,
    ProviderCallbackController,
    LinkRedirectController,
    AudienceImportJobsController,
    AudienceImportUploadController,
  ],
  providers: [
    ...EDGE_CONNECTIONS,
    EdgeConnections,
    WritePathService,
    InboundIntegrations,
    AdminGuard,
    ApiKeyAuthenticator,
    UpstreamProxy,
    ContactsApi,
    MessagingApi,
    KnownContacts,
    SegmentsApi,
    AutomationsApi,
    BroadcastsApi,
    LinkResolver,
    ClickRecorder,
    {
      provide: RateLimitService,
      inject: [REDIS, GATEWAY_CONFIG],
      useFactory: (redis: Redis, config: GatewayConfig) =>
        new RateLimitService(redis, { ...config.rateLimit, keyPrefix: `rl:${config.databaseSchema}` }),
    },
    { provide: APP_GUARD, useClass: PublicApiGuard },
  ],
})
export class EdgeModule {}
