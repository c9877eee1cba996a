import {
  GATEWAY_RECORD_TYPES,
  INTEGRATION_RECORD_TYPES,
  OUTCOME_RECORD_TYPES,
  RecordTypeRegistry,
} from '@cms/contracts';
import { createLogger, ReadinessRegistry } from '@cms/http';
import {
  BatchingProducer,
  createKafka,
  KAFKA_PLUMBING_ENTITIES,
  KAFKA_PLUMBING_MIGRATIONS,
  OutboxRelay,
  OutcomeWaiter,
} from '@cms/kafka';
import { openDatabase } from '@cms/persistence';
import {
  Global,
  Inject,
  Module,
  Optional,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { Redis } from 'ioredis';
import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { DataSource } from 'typeorm';

import { GatewayInit1763780000000 } from '../../migrations/1763780000000-gateway-init.migration';
import { GatewayIntegrations1763810000000 } from '../../migrations/1763810000000-gateway-integrations.migration';
import { GatewayBigintIds1764000000000 } from '../../migrations/1764000000000-gateway-bigint-ids.migration';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { IdAllocatorRepository } from '../ids/id-allocator.repository';
import { RATE_LIMIT_REDIS_OPTIONS } from '../rate-limit/rate-limit.service';
import { IntegrationEntity } from '../integrations/integration.entity';
import { ApiKeyEntity } from '../workspaces/api-key.entity';
import { WorkspaceEntity } from '../workspaces/workspace.entity';

export const LOGGER = Symbol('LOGGER');
export const KAFKA = Symbol('KAFKA');
export const REDIS = Symbol('REDIS');
export const RECORD_REGISTRY = Symbol('RECORD_REGISTRY');

/**
 * The tables the log rebuilds: a replay must reproduce each of them row for row. The id sequences are
 * not among them: ids are minted before a request enters the log, so a rebuild never resets them.
 */
export const PROJECTION_ENTITIES = [WorkspaceEntity, ApiKeyEntity, IntegrationEntity];
export const GATEWAY_ENTITIES = [...KAFKA_PLUMBING_ENTITIES, ...PROJECTION_ENTITIES];
export const GATEWAY_MIGRATIONS = [
  ...KAFKA_PLUMBING_MIGRATIONS,
  GatewayInit1763780000000,
  GatewayIntegrations1763810000000,
  GatewayBigintIds1764000000000,
];

/**
 * Owns the connections of the process and closes them in order on shutdown. A rebuild has no outcome
 * waiter and no Redis: it serves no HTTP.
 */
class Connections implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(BatchingProducer) private readonly producer: BatchingProducer,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Optional() @Inject(OutcomeWaiter) private readonly waiter?: OutcomeWaiter,
    @Optional() @Inject(REDIS) private readonly redis?: Redis,
  ) {}

  onApplicationBootstrap(): void {
    this.readiness.register('postgres', async () => {
      await this.dataSource.query('SELECT 1');
      return true;
    });
    this.readiness.register('kafka-producer', () => this.producer.isConnected);
    const { waiter, redis } = this;
    if (waiter) this.readiness.register('outcomes', () => waiter.isReady);
    if (redis) this.readiness.register('redis', async () => (await redis.ping()) === 'PONG');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.waiter?.stop();
    await this.relay.stop();
    await this.producer.disconnect();
    this.redis?.disconnect();
    await this.dataSource.destroy();
  }
}

@Global()
@Module({})
export class InfrastructureModule {
  static forRoot(config: GatewayConfig, logger: Logger): DynamicModule {
    // What only serving HTTP needs; a rebuild (`main.js rebuild`) applies the log and mints no id.
    const serving: Provider[] = [
      {
        provide: OutcomeWaiter,
        inject: [KAFKA],
        useFactory: async (kafka: Kafka) => {
          const waiter = new OutcomeWaiter({
            kafka,
            logger,
            topic: config.topics.outcomes,
            groupPrefix: 'gateway-outcomes',
          });
          await waiter.start();
          return waiter;
        },
      },
      {
        provide: REDIS,
        useFactory: () => new Redis(config.redisUrl, RATE_LIMIT_REDIS_OPTIONS),
      },
      {
        provide: IdAllocatorRepository,
        inject: [DataSource],
        useFactory: (dataSource: DataSource) => new IdAllocatorRepository(dataSource),
      },
    ];
    return {
      module: InfrastructureModule,
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: LOGGER, useValue: logger },
        {
          provide: RECORD_REGISTRY,
          useFactory: () =>
            new RecordTypeRegistry().register(
              ...GATEWAY_RECORD_TYPES,
              ...INTEGRATION_RECORD_TYPES,
              ...OUTCOME_RECORD_TYPES,
            ),
        },
        {
          provide: DataSource,
          useFactory: () =>
            openDatabase({
              url: config.databaseUrl,
              schema: config.databaseSchema,
              applicationName: 'gateway',
              entities: GATEWAY_ENTITIES,
              migrations: GATEWAY_MIGRATIONS,
            }),
        },
        {
          provide: KAFKA,
          useFactory: () => createKafka({ brokers: config.kafkaBrokers, clientId: 'gateway' }, logger),
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
        ...(config.rebuild ? [] : serving),
        Connections,
      ],
      exports: [
        GATEWAY_CONFIG,
        LOGGER,
        RECORD_REGISTRY,
        DataSource,
        KAFKA,
        BatchingProducer,
        OutboxRelay,
        ...(config.rebuild ? [] : [OutcomeWaiter, REDIS, IdAllocatorRepository]),
      ],
    };
  }
}

export { createLogger };
