import { rejectedOutcome, type Envelope, type RecordTypeRegistry } from '@cms/contracts';
import { bootstrapHttp, createFastifyAdapter, createLogger, ReadinessRegistry } from '@cms/http';
import {
  createKafka,
  KafkaRecordServer,
  OutboxRelay,
  prepareRebuild,
  rebuildDone,
  untilOf,
  type ConsumerRuntime,
  type RebuildPlan,
} from '@cms/kafka';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { DataSource } from 'typeorm';

import { AppModule } from './app.module';
import { ContactsChunk } from './chunk/contacts-chunk';
import { consumerGroup, type ContactsConfig } from './config';
import { SOURCE } from './decisions/decision';
import { KAFKA, PROJECTION_ENTITIES, RECORD_REGISTRY } from './infrastructure/infrastructure.module';
import { startShares, whenPrepared, type Shares } from './rebuild-shares';

type Answerable = Pick<Envelope, 'id' | 'workspaceid' | 'correlationid' | 'time'>;

/**
 * The parts of a record an outcome needs, from a record whose data failed validation: its client is
 * still waiting for an answer, and the envelope says where the answer goes.
 */
function answerableEnvelope(value: Buffer | null): Answerable | undefined {
  try {
    const parsed = JSON.parse(value?.toString('utf8') ?? 'null') as Partial<
      Record<keyof Answerable, unknown>
    >;
    const { id, workspaceid, correlationid, time } = parsed;
    if (
      typeof id === 'string' &&
      typeof workspaceid === 'string' &&
      typeof correlationid === 'string' &&
      typeof time === 'string'
    ) {
      return { id, workspaceid, correlationid, time };
    }
  } catch {
    // Not JSON: nobody can be answered.
  }
  return undefined;
}

export interface ContactsApp {
  app: NestFastifyApplication;
  logger: Logger;
  url: string;
  /** The request consumer, for its stats. */
  consumer: ConsumerRuntime;
  close(): Promise<void>;
}

/** The consumer of the requests topic: the same handlers live and when rebuilding. */
function requestsServer(
  app: NestFastifyApplication,
  config: ContactsConfig,
  logger: Logger,
  rebuild?: RebuildPlan,
): KafkaRecordServer {
  const relay = app.get(OutboxRelay);
  const group = consumerGroup(config.topics, config.consumerName);
  const share = config.rebuildShare ?? { index: 0, of: 1 };
  // Each process of a rebuild reads in a group of its own and applies its share of the partitions.
  const rebuildGroup = rebuild && `${group}.rebuild.${rebuild.group}${share.of > 1 ? `.${share.index}` : ''}`;
  return new KafkaRecordServer({
    name: config.consumerName,
    groupId: rebuildGroup ?? group,
    sessionTimeoutMs: config.kafkaSessionTimeoutMs,
    topics: [config.topics.requests],
    kafka: app.get<Kafka>(KAFKA),
    dataSource: app.get(DataSource),
    registry: app.get<RecordTypeRegistry>(RECORD_REGISTRY),
    logger: logger.child({ component: 'requests-consumer' }),
    metrics: app.get(Registry),
    deadLetterTopic: config.topics.deadLetters,
    onOutboxWritten: () => relay.kick(),
    // Event requests and contact writes of a chunk are decided together, live and when rebuilding.
    chunk: app.get(ContactsChunk),
    // A rebuild has the machine to itself: one partition's statements run while another's are decided.
    ...(rebuild
      ? {
          until: untilOf(rebuild, config.consumerName),
          transactionsConcurrently: 2,
          maxRecordsPerTransaction: 5000,
          ...(share.of > 1
            ? { owns: (_: string, partition: number) => partition % share.of === share.index }
            : {}),
        }
      : {}),
    // A request that can never be applied still gets an answer, so its client is not left waiting.
    onRejected: async ({ record, raw, errorId }, context) => {
      const request = record ?? answerableEnvelope(raw.value);
      if (!request) return;
      context.emit(
        config.topics.outcomes,
        rejectedOutcome(request, SOURCE, 500, [
          {
            status: '500',
            title: 'Internal Server Error',
            detail: 'The request could not be applied.',
            id: errorId,
          },
        ]),
      );
    },
  });
}

async function createApp(config: ContactsConfig, logger: Logger): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, logger),
    // Only the gateway calls this service: its X-Request-Id is the correlation id here too.
    createFastifyAdapter({ logger, trustCallerRequestId: true }),
    { bufferLogs: true },
  );
  bootstrapHttp(app, { service: 'contacts', logger });
  app.enableShutdownHooks();
  return app;
}

/** Builds and starts the contacts service: its request consumer, and HTTP on `config.httpPort` (0 = any). */
export async function startContacts(
  config: ContactsConfig,
  logger: Logger = createLogger('contacts'),
): Promise<ContactsApp> {
  const app = await createApp(config, logger);
  const server = requestsServer(app, config, logger);
  app.connectMicroservice({ strategy: server }, { inheritAppConfig: true });
  await app.startAllMicroservices();
  const consumer = server.unwrap<ConsumerRuntime>();
  app.get(ReadinessRegistry).register('requests-consumer', () => consumer.isReady);
  await app.listen({ port: config.httpPort, host: '0.0.0.0' });
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.httpPort;
  return {
    app,
    logger,
    url: `http://127.0.0.1:${port}`,
    consumer,
    close: () => app.close(),
  };
}

/**
 * `main.js rebuild`: applies the log to `config.databaseSchema` up to the plan's end, without HTTP,
 * then stops. `ops replay contacts` starts it and shows its progress. The first process starts the
 * others of `config.rebuildShare` (one per core) and prepares the schema; then each applies its share
 * of the partitions, and each stops once every partition got to the plan's end.
 */
export async function rebuildContacts(
  config: ContactsConfig,
  plan: RebuildPlan,
  logger: Logger = createLogger('contacts'),
  /** The other processes, when main.js started them before loading (see startShares). */
  started?: Shares,
): Promise<void> {
  const share = config.rebuildShare ?? { index: 0, of: 1 };
  let failed: unknown;
  const shares = share.index === 0 && share.of > 1 ? (started ?? startShares(share.of)) : undefined;
  shares?.exited.catch((error: unknown) => {
    failed = error;
  });
  const prepared = share.index > 0 ? whenPrepared() : Promise.resolve();
  const app = await createApp(config, logger);
  await app.init();
  const dataSource = app.get(DataSource);
  if (share.index === 0) {
    const tables = PROJECTION_ENTITIES.map((entity) => dataSource.getMetadata(entity).tableName);
    const { emptied } = await prepareRebuild(dataSource, plan, tables);
    logger.info({ schema: config.databaseSchema, emptied, processes: share.of }, 'rebuild starting');
    shares?.prepared();
  }
  await prepared;
  const server = requestsServer(app, config, logger, plan);
  app.connectMicroservice({ strategy: server }, { inheritAppConfig: true });
  await app.startAllMicroservices();
  const admin = createKafka({ brokers: config.kafkaBrokers, clientId: 'contacts-rebuild' }).admin();
  await admin.connect();
  try {
    while (failed === undefined && !(await rebuildDone(dataSource, admin, plan)))
      await new Promise((resolve) => setTimeout(resolve, 100));
  } finally {
    await admin.disconnect();
  }
  await shares?.exited.catch(() => undefined);
  logger.info(
    {
      schema: config.databaseSchema,
      share: `${share.index}/${share.of}`,
      applied: server.unwrap<ConsumerRuntime>().stats.applied,
    },
    'rebuild done',
  );
  await app.close();
  if (failed !== undefined) throw failed;
}
