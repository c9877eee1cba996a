import { OUTCOME_RECORD_TYPES, WEBHOOK_RECORD_TYPES } from '@cms/contracts';
import type { ServiceDefinition } from '@cms/service-kit';

import { WEBHOOK_DISPATCH_MIGRATIONS } from '../migrations/1763800000000-webhook-dispatch-init.migration';
import { WebhookDispatchRebuildable1763950000000 } from '../migrations/1763950000000-webhook-dispatch-rebuildable.migration';
import { WebhookDispatchBigintIds1764000000000 } from '../migrations/1764000000000-webhook-dispatch-bigint-ids.migration';
import { WebhookDispatchOrderedSubjects1764100000000 } from '../migrations/1764100000000-webhook-dispatch-ordered-subjects.migration';
import { DEFAULT_SCHEMA, loadConfig, WEBHOOK_DISPATCH_CONFIG, type WebhookDispatchConfig } from './config';
import { SOURCE } from './decisions/decision';
import { RequestDecider } from './decisions/request-decider';
import { DeliveriesModule } from './deliveries/deliveries.module';
import { SourceFactsChunk } from './deliveries/fan-out/source-facts.consumer';
import { WebhookAttemptEntity } from './deliveries/webhook-attempt.entity';
import { WebhookDeliveryEntity } from './deliveries/webhook-delivery.entity';
import {
  assertSourcesRegistered,
  SOURCE_RECORD_DEFINITIONS,
  sourceTopics,
} from './deliveries/webhook-sources';
import { DeliveryWorker } from './dispatch/delivery.worker';
import { DispatchModule, type SenderOverrides } from './dispatch/dispatch.module';
import { EndpointFailureEntity } from './endpoints/endpoint-failure.entity';
import { EndpointsModule } from './endpoints/endpoints.module';
import { WebhookEndpointEntity } from './endpoints/webhook-endpoint.entity';
import { AddressPolicy } from '@cms/http';
import { FACTS_TRANSPORT, REQUESTS_TRANSPORT } from './transports';
import { WebhookRequestsConsumer } from './webhook-requests.consumer';

/** The tables the log rebuilds: a replay must reproduce each of them row for row. */
export const PROJECTION_ENTITIES = [WebhookEndpointEntity];

/**
 * Signed outbound webhooks: endpoints decided from the requests topic, deliveries fanned out from the
 * facts of the source table, and the worker that sends them.
 */
export const WEBHOOK_DISPATCH_SERVICE: ServiceDefinition<WebhookDispatchConfig, SenderOverrides> = {
  name: 'webhook-dispatch',
  defaultSchema: DEFAULT_SCHEMA,
  source: SOURCE,
  configToken: WEBHOOK_DISPATCH_CONFIG,
  loadConfig,
  projection: PROJECTION_ENTITIES,
  // The delivery jobs with their attempts, and the endpoints' failure counts: blue/green carries them
  // over at the switch (`ops replay`).
  jobs: [WebhookDeliveryEntity, WebhookAttemptEntity, EndpointFailureEntity],
  migrations: [
    ...WEBHOOK_DISPATCH_MIGRATIONS,
    WebhookDispatchRebuildable1763950000000,
    WebhookDispatchBigintIds1764000000000,
    WebhookDispatchOrderedSubjects1764100000000,
  ],
  // The webhook requests, and the facts of the source table.
  recordTypes: () => {
    assertSourcesRegistered();
    return [...WEBHOOK_RECORD_TYPES, ...OUTCOME_RECORD_TYPES, ...SOURCE_RECORD_DEFINITIONS];
  },
  consumers: [
    {
      suffix: '',
      component: 'requests-consumer',
      topics: (config) => [config.topics.requests],
      transportId: REQUESTS_TRANSPORT,
      answersRequests: true,
      // Most of what it reads is other services' requests; its own (endpoints) can wait 20 ms.
      gatherFetch: true,
    },
    {
      suffix: '.facts',
      component: 'facts-consumer',
      topics: (config) => sourceTopics().map((key) => config.topics[key]),
      transportId: FACTS_TRANSPORT,
      // The facts of a chunk are fanned out with a statement or two, not two per fact.
      chunk: SourceFactsChunk,
      // Most facts make no delivery; a delivery made 20 ms later is no later for its endpoint.
      gatherFetch: true,
    },
  ],
  modules: (_config, overrides) => [EndpointsModule, DeliveriesModule, DispatchModule.forRoot(overrides)],
  providers: (config) => [
    { provide: AddressPolicy, useFactory: () => new AddressPolicy(config.allowNetworks) },
    RequestDecider,
  ],
  controllers: [WebhookRequestsConsumer],
  workers: [{ component: 'delivery-worker', worker: DeliveryWorker }],
};
