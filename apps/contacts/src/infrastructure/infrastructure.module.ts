import { CONTACTS_RECORD_TYPES, OUTCOME_RECORD_TYPES, RecordTypeRegistry } from '@cms/contracts';
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

import { CONTACTS_MIGRATIONS } from '../../migrations/1763790000000-contacts-init.migration';
import { ContactsInboundReceipts1763810000000 } from '../../migrations/1763810000000-contacts-inbound-receipts.migration';
import { CONTACTS_CONFIG, type ContactsConfig } from '../config';
import { ConsentChangeEntity } from '../contacts/consent-change.entity';
import { ContactChannelEntity } from '../contacts/contact-channel.entity';
import { ContactEntity } from '../contacts/contact.entity';
import { InboundReceiptEntity } from '../contacts/inbound-receipt.entity';
import { WorkspaceUsageEntity } from '../contacts/workspace-usage.entity';
import { EventEntity } from '../events/event.entity';
import { ContactTagEntity } from '../tags/contact-tag.entity';
import { TagEntity } from '../tags/tag.entity';

export const LOGGER = Symbol('LOGGER');
export const KAFKA = Symbol('KAFKA');
export const RECORD_REGISTRY = Symbol('RECORD_REGISTRY');

/** The tables the log rebuilds: a replay must reproduce each of them row for row. */
export const PROJECTION_ENTITIES = [
  ContactEntity,
  ContactChannelEntity,
  ConsentChangeEntity,
  WorkspaceUsageEntity,
  TagEntity,
  ContactTagEntity,
  EventEntity,
  InboundReceiptEntity,
];
export const CONTACTS_ENTITIES = [...KAFKA_PLUMBING_ENTITIES, ...PROJECTION_ENTITIES];
export const CONTACTS_ALL_MIGRATIONS = [
  ...KAFKA_PLUMBING_MIGRATIONS,
  ...CONTACTS_MIGRATIONS,
  ContactsInboundReceipts1763810000000,
];

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
  static forRoot(config: ContactsConfig, logger: Logger): DynamicModule {
    return {
      module: InfrastructureModule,
      providers: [
        { provide: CONTACTS_CONFIG, useValue: config },
        { provide: LOGGER, useValue: logger },
        {
          provide: RECORD_REGISTRY,
          useFactory: () =>
            new RecordTypeRegistry().register(...CONTACTS_RECORD_TYPES, ...OUTCOME_RECORD_TYPES),
        },
        {
          provide: DataSource,
          useFactory: () =>
            openDatabase({
              url: config.databaseUrl,
              schema: config.databaseSchema,
              applicationName: 'contacts',
              entities: CONTACTS_ENTITIES,
              migrations: CONTACTS_ALL_MIGRATIONS,
            }),
        },
        {
          provide: KAFKA,
          useFactory: () => createKafka({ brokers: config.kafkaBrokers, clientId: 'contacts' }, logger),
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
      exports: [CONTACTS_CONFIG, LOGGER, RECORD_REGISTRY, DataSource, KAFKA, BatchingProducer, OutboxRelay],
    };
  }
}
