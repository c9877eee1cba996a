import { RecordTypeRegistry } from '@cms/contracts';
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

import type { KitConfig, ServiceDefinition } from './service-definition';
import { StartupStatus } from './startup';

export const LOGGER = Symbol('LOGGER');
export const KAFKA = Symbol('KAFKA');
export const RECORD_REGISTRY = Symbol('RECORD_REGISTRY');

/** Every table of the service: the backbone's plumbing, its projection and its jobs. */
export function entitiesOf<C extends KitConfig, O>(definition: ServiceDefinition<C, O>) {
  return [...KAFKA_PLUMBING_ENTITIES, ...definition.projection, ...(definition.jobs ?? [])];
}

/** The backbone's plumbing migrations, then the service's own. */
export function migrationsOf<C extends KitConfig, O>(definition: ServiceDefinition<C, O>) {
  return [...KAFKA_PLUMBING_MIGRATIONS, ...(definition.migrations as unknown[])] as Array<new () => unknown>;
}

/** The registry of every record type the service's consumers read. */
export function registryOf<C extends KitConfig, O>(definition: ServiceDefinition<C, O>): RecordTypeRegistry {
  return new RecordTypeRegistry().register(...definition.recordTypes());
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

/**
 * What every service stands on: its configuration and logger, the record registry, Postgres (migrated
 * at boot), Kafka, the producer and the outbox relay, with the readiness checks of the connections and
 * their orderly close.
 */
@Global()
@Module({})
export class KitInfrastructureModule {
  static forRoot<C extends KitConfig, O>(
    definition: ServiceDefinition<C, O>,
    config: C,
    logger: Logger,
    startup: StartupStatus = new StartupStatus(definition.name, logger),
  ): DynamicModule {
    const own = definition.providers?.(config, logger) ?? [];
    return {
      module: KitInfrastructureModule,
      providers: [
        { provide: definition.configToken, useValue: config },
        { provide: LOGGER, useValue: logger },
        { provide: RECORD_REGISTRY, useFactory: () => registryOf(definition) },
        {
          provide: DataSource,
          useFactory: () =>
            openDatabase(
              {
                url: config.databaseUrl,
                schema: config.databaseSchema,
                applicationName: definition.name,
                entities: entitiesOf(definition),
                migrations: migrationsOf(definition),
              },
              (open) => startup.retry('postgres', open),
            ),
        },
        {
          provide: KAFKA,
          useFactory: () => createKafka({ brokers: config.kafkaBrokers, clientId: definition.name }, logger),
        },
        {
          provide: BatchingProducer,
          inject: [KAFKA],
          useFactory: async (kafka: Kafka) => {
            const producer = new BatchingProducer(kafka);
            await startup.retry('kafka', () => producer.connect());
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
        ...own,
      ],
      exports: [
        definition.configToken,
        LOGGER,
        RECORD_REGISTRY,
        DataSource,
        KAFKA,
        BatchingProducer,
        OutboxRelay,
        ...own.map((provider) => ('provide' in provider ? provider.provide : provider)),
      ],
    };
  }
}
