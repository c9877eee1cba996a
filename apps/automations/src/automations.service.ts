import { AUTOMATIONS_RECORD_TYPES, OUTCOME_RECORD_TYPES } from '@cms/contracts';
import type { ServiceDefinition } from '@cms/service-kit';

import { AutomationsInit1795838825093 } from '../migrations/1795838825093-automations-init.migration';
import { AutomationsRequestsConsumer } from './automations-requests.consumer';
import { WorkflowsModule } from './workflows/workflows.module';
import { WorkflowEntity, WorkflowVersionEntity } from './workflows/workflow.entity';
import { AUTOMATIONS_CONFIG, DEFAULT_SCHEMA, loadConfig, SOURCE, type AutomationsConfig } from './config';

/** The tables the log rebuilds: a replay must reproduce each of them row for row. */
export const PROJECTION_ENTITIES = [WorkflowEntity, WorkflowVersionEntity];

/** The automations service: its workflows, decided from the requests topic. */
export const AUTOMATIONS_SERVICE: ServiceDefinition<AutomationsConfig> = {
  name: 'automations',
  defaultSchema: DEFAULT_SCHEMA,
  source: SOURCE,
  configToken: AUTOMATIONS_CONFIG,
  loadConfig,
  projection: PROJECTION_ENTITIES,
  migrations: [AutomationsInit1795838825093],
  recordTypes: () => [...AUTOMATIONS_RECORD_TYPES, ...OUTCOME_RECORD_TYPES],
  consumers: [
    {
      suffix: '',
      component: 'requests-consumer',
      topics: (config) => [config.topics.requests],
      answersRequests: true,
      // Most of what it reads is other services' requests; its own can wait 20 ms.
      gatherFetch: true,
    },
  ],
  modules: () => [WorkflowsModule],
  controllers: [AutomationsRequestsConsumer],
};
