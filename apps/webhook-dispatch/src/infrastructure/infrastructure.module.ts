import { OUTCOME_RECORD_TYPES, RecordTypeRegistry, WEBHOOK_RECORD_TYPES } from '@cms/contracts';
import { ReadinessRegistry } from '@cms/http';
import {
  BatchingProducer,
  createKafka,
  KAFKA_PLUMBING_ENTITIES,
  KAFKA_PLUMBING_MIGRATIONS,
  OutboxRelay,
} from '@cms/kafka';
import { openDatabase } from '@cms/persistence';
import {
  Global,
  Inject,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { DataSource } from 'typeorm';

import { WEBHOOK_DISPATCH_MIGRATIONS } from '../../migrations/1763800000000-webhook-dispatch-init.migration';
import { WebhookDispatchRebuildable1763950000000 } from '../../migrations/1763950000000-webhook-dispatch-rebuildable.migration';
import { WebhookDispatchBigintIds1764000000000 } from '../../migrations/1764000000000-webhook-dispatch-bigint-ids.migration';
import { WEBHOOK_DISPATCH_CONFIG, type WebhookDispatchConfig } from '../config';
import { WebhookAttemptEntity } from '../deliveries/webhook-attempt.entity';
import { WebhookDeliveryEntity } from '../deliveries/webhook-delivery.entity';
import { assertSourcesRegistered, SOURCE_RECORD_DEFINITIONS } from '../deliveries/webhook-sources';
import { EndpointFailureEntity } from '../endpoints/endpoint-failure.entity';
import { WebhookEndpointEntity } from '../endpoints/webhook-endpoint.entity';
import { AddressPolicy } from '../ssrf/address-policy';

export const LOGGER = Symbol('LOGGER');
export const KAFKA = Symbol('KAFKA');
export const RECORD_REGISTRY = Symbol('RECORD_REGISTRY');

/** The tables the log rebuilds: a replay must reproduce each of them row for row. */
export const PROJECTION_ENTITIES = [WebhookEndpointEntity];
/**
 * Not derived from the log: the delivery jobs with their attempts, and the endpoints' failure counts.
 * A rebuild in place keeps them; blue/green carries them over at the switch (`ops replay`).
 */
export const JOB_ENTITIES = [WebhookDeliveryEntity, WebhookAttemptEntity, EndpointFailureEntity];
export const WEBHOOK_DISPATCH_ENTITIES = [
  ...KAFKA_PLUMBING_ENTITIES,
  ...PROJECTION_ENTITIES,
  ...JOB_ENTITIES,
];
export const WEBHOOK_DISPATCH_ALL_MIGRATIONS = [
  ...KAFKA_PLUMBING_MIGRATIONS,
  ...WEBHOOK_DISPATCH_MIGRATIONS,
  WebhookDispatchRebuildable1763950000000,
  WebhookDispatchBigintIds1764000000000,
];

/** Every record the two consumers read: the webhook requests, and the facts of the source table. */
export function webhookDispatchRegistry(): RecordTypeRegistry {
  assertSourcesRegistered();
  return new RecordTypeRegistry().register(
    ...WEBHOOK_RECORD_TYPES,
    ...OUTCOME_RECORD_TYPES,
    ...SOURCE_RECORD_DEFINITIONS,
  );
}

/** Owns the connections of the process and closes them in order on shutdown. */
class Connections implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(BatchingProducer) private readonly producer: BatchingProducer,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
  ) {}

  onApplicationBootstrap(): void {
    this.readiness.register('postgres', async () => {
      await this.dataSource.query('SELECT 1');
      return true;
    });
    this.readiness.register('kafka-producer', () => this.producer.isConnected);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.relay.stop();
    await this.producer.disconnect();
    await this.dataSource.destroy();
  }
}

@Global()
@Module({})
export class InfrastructureModule {
  static forRoot(config: WebhookDispatchConfig, logger: Logger): DynamicModule {
    return {
      module: InfrastructureModule,
      providers: [
        { provide: WEBHOOK_DISPATCH_CONFIG, useValue: config },
        { provide: LOGGER, useValue: logger },
        { provide: RECORD_REGISTRY, useFactory: webhookDispatchRegistry },
        { provide: AddressPolicy, useFactory: () => new AddressPolicy(config.allowNetworks) },
        {
          provide: DataSource,
          useFactory: () =>
            openDatabase({
              url: config.databaseUrl,
              schema: config.databaseSchema,
              applicationName: 'webhook-dispatch',
              entities: WEBHOOK_DISPATCH_ENTITIES,
              migrations: WEBHOOK_DISPATCH_ALL_MIGRATIONS,
            }),
        },
        {
          provide: KAFKA,
          useFactory: () =>
            createKafka({ brokers: config.kafkaBrokers, clientId: 'webhook-dispatch' }, logger),
        },
        {
          provide: BatchingProducer,
          inject: [KAFKA],
          useFactory: async (kafka: Kafka) => {
            const producer = new BatchingProducer(kafka);
            await producer.connect();
            return producer;
          },
        },
        {
          provide: OutboxRelay,
          inject: [DataSource, BatchingProducer, Registry],
          useFactory: (dataSource: DataSource, producer: BatchingProducer, metrics: Registry) => {
            const relay = new OutboxRelay({
              dataSource,
              databaseUrl: config.databaseUrl,
              schema: config.databaseSchema,
              producer,
              logger,
              metrics,
            });
            // A rebuild below the live service's position must not publish: the live service did.
            if (config.rebuild?.publish !== false) relay.start();
            return relay;
          },
        },
        Connections,
      ],
      exports: [
        WEBHOOK_DISPATCH_CONFIG,
        LOGGER,
        RECORD_REGISTRY,
        AddressPolicy,
        DataSource,
        KAFKA,
        BatchingProducer,
        OutboxRelay,
      ],
    };
  }
}
