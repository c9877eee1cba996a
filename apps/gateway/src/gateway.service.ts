import { GATEWAY_RECORD_TYPES, INTEGRATION_RECORD_TYPES, OUTCOME_RECORD_TYPES } from '@cms/contracts';
import type { ServiceDefinition } from '@cms/service-kit';

import { GatewayInit1763780000000 } from '../migrations/1763780000000-gateway-init.migration';
import { GatewayIntegrations1763810000000 } from '../migrations/1763810000000-gateway-integrations.migration';
import { GatewayBigintIds1764000000000 } from '../migrations/1764000000000-gateway-bigint-ids.migration';
import { GatewayImportJobIds1795800000001 } from '../migrations/1795800000001-gateway-import-job-ids.migration';
import { serveConsole } from './console/serve-console';
import { DEFAULT_SCHEMA, GATEWAY_CONFIG, loadConfig, type GatewayConfig } from './config';
import { DecisionsModule } from './decisions/decisions.module';
import { SOURCE } from './decisions/request-decider';
import { EdgeModule } from './edge/edge.module';
import { IntegrationEntity } from './integrations/integration.entity';
import { serveOpenApi } from './openapi/openapi.document';
import { acceptProviderCallbackBodies } from './provider-callbacks/provider-callback.controller';
import { acceptImportUploads } from './segments-api/audience-import-upload.controller';
import { ApiKeyEntity } from './workspaces/api-key.entity';
import { WorkspaceEntity } from './workspaces/workspace.entity';

/**
 * The tables the log rebuilds: a replay must reproduce each of them row for row. The id sequences are
 * not among them: ids are minted before a request enters the log, so a rebuild never resets them.
 */
export const PROJECTION_ENTITIES = [WorkspaceEntity, ApiKeyEntity, IntegrationEntity];

export const GATEWAY_MIGRATIONS_IN_ORDER = [
  GatewayInit1763780000000,
  GatewayIntegrations1763810000000,
  GatewayBigintIds1764000000000,
  GatewayImportJobIds1795800000001,
];

/**
 * The gateway: the platform's HTTP edge (API keys, plans, rate limits, the write path and the read
 * proxy), and the workspaces, API keys and integrations it decides itself from the requests topic.
 */
export const GATEWAY_SERVICE: ServiceDefinition<GatewayConfig> = {
  name: 'gateway',
  defaultSchema: DEFAULT_SCHEMA,
  source: SOURCE,
  configToken: GATEWAY_CONFIG,
  loadConfig,
  projection: PROJECTION_ENTITIES,
  migrations: GATEWAY_MIGRATIONS_IN_ORDER,
  recordTypes: () => [...GATEWAY_RECORD_TYPES, ...INTEGRATION_RECORD_TYPES, ...OUTCOME_RECORD_TYPES],
  consumers: [
    {
      suffix: '',
      component: 'requests-consumer',
      topics: (config) => [config.topics.requests],
      // Most of what it reads is other services' requests; its own (workspaces, keys) can wait 20 ms.
      gatherFetch: true,
      answersRequests: true,
    },
  ],
  // A rebuild applies the log and serves no HTTP: only the decisions.
  modules: (config) => (config.rebuild ? [DecisionsModule] : [DecisionsModule, EdgeModule]),
  http: {
    publicEdge: true,
    beforeListen: (app) => {
      acceptProviderCallbackBodies(app);
      acceptImportUploads(app);
      serveOpenApi(app);
      serveConsole(app);
    },
  },
};
