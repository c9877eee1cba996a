import { consumerGroup } from '@cms/config';
import { rejectedOutcome, type Envelope, type RecordTypeRegistry } from '@cms/contracts';
import {
  bootstrapHttp,
  createFastifyAdapter,
  createLogger,
  HealthModule,
  ReadinessRegistry,
} from '@cms/http';
import {
  createKafka,
  longPoll,
  KafkaRecordServer,
  OutboxRelay,
  prepareRebuild,
  rebuildDone,
  registerProgressChecks,
  untilOf,
  type ConsumerRuntime,
  type RebuildPlan,
  type RecordContext,
  type RejectedRecord,
} from '@cms/kafka';
import { Injectable, Module, type BeforeApplicationShutdown, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import { DataSource } from 'typeorm';

import { KAFKA, KitInfrastructureModule, RECORD_REGISTRY } from './infrastructure.module';
import { startShares, whenPrepared, type Shares } from './rebuild-shares';
import { StartupStatus } from './startup';
import type {
  BackgroundWorker,
  ConsumerDeclaration,
  KitConfig,
  ServiceDefinition,
} from './service-definition';

type Answerable = Pick<Envelope, 'id' | 'workspaceid' | 'correlationid' | 'time'>;

/**
 * The parts of a record an outcome needs, from a record whose data failed validation: its client is
 * still waiting for an answer, and the envelope says where the answer goes.
 */
export function answerableEnvelope(value: Buffer | null): Answerable | undefined {
  try {
    const parsed = JSON.parse(value?.toString('utf8') ?? 'null') as Partial<
      Record<keyof Answerable, unknown>
    > | null;
    const { id, workspaceid, correlationid, time } = parsed ?? {};
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

/** A running service: its app, its address and its consumers by component. */
export interface RunningService {
  app: NestFastifyApplication;
  logger: Logger;
  url: string;
  consumers: Record<string, ConsumerRuntime>;
  close(): Promise<void>;
}

/** The service's workers: started once its consumers listen, stopped before its connections close. */
@Injectable()
class BackgroundWorkers implements BeforeApplicationShutdown {
  private readonly started: BackgroundWorker[] = [];

  start<C extends KitConfig, O>(
    definition: ServiceDefinition<C, O>,
    app: NestFastifyApplication,
    readiness: ReadinessRegistry,
  ): void {
    for (const { component, worker: token } of definition.workers ?? []) {
      const worker = app.get(token);
      worker.start();
      this.started.push(worker);
      readiness.register(component, () => worker.isRunning);
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.started.map((worker) => worker.stop()));
  }
}

@Module({})
class ServiceModule {
  static forRoot<C extends KitConfig, O>(
    definition: ServiceDefinition<C, O>,
    config: C,
    logger: Logger,
    overrides: O | undefined,
    startup: StartupStatus,
  ): DynamicModule {
    return {
      module: ServiceModule,
      imports: [
        KitInfrastructureModule.forRoot(definition, config, logger, startup),
        HealthModule.forRoot({ service: definition.name }),
        ...definition.modules(config, overrides),
      ],
      controllers: definition.controllers ?? [],
      providers: [BackgroundWorkers],
    };
  }
}

async function createApp<C extends KitConfig, O>(
  definition: ServiceDefinition<C, O>,
  config: C,
  logger: Logger,
  overrides: O | undefined,
  startup: StartupStatus = new StartupStatus(definition.name, logger),
): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    ServiceModule.forRoot(definition, config, logger, overrides, startup),
    // Behind the public edge only the gateway calls a service: its X-Request-Id is the correlation id here too.
    createFastifyAdapter({
      logger,
      trustCallerRequestId: definition.http?.publicEdge !== true,
      ...(definition.http?.bodyLimitBytes !== undefined
        ? { bodyLimitBytes: definition.http.bodyLimitBytes }
        : {}),
    }),
    // A provider that fails (a dependency still away after the start-up wait) throws to the caller
    // instead of Nest ending the process: main.js exits 1 itself; a test runner fails one suite.
    { bufferLogs: true, abortOnError: false },
  );
  bootstrapHttp(app, { service: definition.name, logger });
  app.enableShutdownHooks();
  return app;
}

/**
 * The service's application as Nest's preview mode builds it: its modules and routes resolved, no
 * provider instantiated, so nothing connects to anything. What documents the routes (the gateway's
 * OpenAPI document, written without a running system) reads it.
 */
export async function previewService<C extends KitConfig, O>(
  definition: ServiceDefinition<C, O>,
  config: C,
  logger: Logger,
): Promise<NestFastifyApplication> {
  return NestFactory.create<NestFastifyApplication>(
    ServiceModule.forRoot(definition, config, logger, undefined, new StartupStatus(definition.name, logger)),
    createFastifyAdapter({ logger, trustCallerRequestId: definition.http?.publicEdge !== true }),
    { preview: true, abortOnError: false, logger: false },
  );
}

/** The consumers of the service, connected to the app: the same handlers live and when rebuilding. */
function connectConsumers<C extends KitConfig, O>(
  definition: ServiceDefinition<C, O>,
  app: NestFastifyApplication,
  config: C,
  logger: Logger,
  rebuild?: RebuildPlan,
): Map<ConsumerDeclaration<C>, KafkaRecordServer> {
  const relay = app.get(OutboxRelay);
  const share = config.rebuildShare ?? { index: 0, of: 1 };
  const servers = new Map<ConsumerDeclaration<C>, KafkaRecordServer>();
  for (const declaration of definition.consumers) {
    const name = `${config.consumerName}${declaration.suffix}`;
    const group = consumerGroup(config.topics, name);
    // Each process of a rebuild reads in a group of its own and applies its share of the partitions.
    const groupId = rebuild
      ? `${group}.rebuild.${rebuild.group}${share.of > 1 ? `.${share.index}` : ''}`
      : group;
    // A heartbeat goes after each fetch: the broker must answer an empty one well inside the session.
    const fetchWaitMs = Math.min(config.kafkaFetchWaitMs, Math.floor(config.kafkaSessionTimeoutMs / 3));
    const server = new KafkaRecordServer({
      name,
      groupId,
      sessionTimeoutMs: config.kafkaSessionTimeoutMs,
      topics: declaration.topics(config),
      kafka: app.get<Kafka>(KAFKA),
      dataSource: app.get(DataSource),
      registry: app.get<RecordTypeRegistry>(RECORD_REGISTRY),
      logger: logger.child({ component: declaration.component }),
      metrics: app.get(Registry),
      deadLetterTopic: config.topics.deadLetters,
      onOutboxWritten: () => relay.kick(),
      ...(declaration.chunk ? { chunk: app.get(declaration.chunk) } : {}),
      ...(rebuild
        ? {
            fetch: longPoll(fetchWaitMs),
            until: untilOf(rebuild, name),
            ...declaration.rebuild,
            ...(share.of > 1
              ? { owns: (_: string, partition: number) => partition % share.of === share.index }
              : {}),
          }
        : { fetch: longPoll(fetchWaitMs, declaration.gatherFetch) }),
      ...(declaration.answersRequests || declaration.onRejected
        ? {
            onRejected: async (rejected: RejectedRecord, context: RecordContext) => {
              if (declaration.answersRequests) answerRejected(rejected, context, config, definition.source);
              await declaration.onRejected?.(rejected, context, config);
            },
          }
        : {}),
    });
    if (declaration.transportId) server.setTransportId(declaration.transportId);
    app.connectMicroservice({ strategy: server }, { inheritAppConfig: true });
    servers.set(declaration, server);
  }
  return servers;
}

/** A request that can never be applied still gets an answer: 500 with the dead letter's error id. */
function answerRejected(
  { record, raw, errorId }: RejectedRecord,
  context: RecordContext,
  config: KitConfig,
  source: string,
): void {
  const request = record ?? answerableEnvelope(raw.value);
  if (!request) return;
  context.emit(
    config.topics.outcomes,
    rejectedOutcome(request, source, 500, [
      {
        status: '500',
        title: 'Internal Server Error',
        detail: 'The request could not be applied.',
        id: errorId,
      },
    ]),
  );
}

function runtimesOf<C extends KitConfig>(
  servers: Map<ConsumerDeclaration<C>, KafkaRecordServer>,
): Record<string, ConsumerRuntime> {
  return Object.fromEntries(
    [...servers].map(([declaration, server]) => [declaration.component, server.unwrap<ConsumerRuntime>()]),
  );
}

/**
 * Builds and starts the service: its consumers, readiness (the consumers', and whether its outbox and
 * consumers move while work waits), its background workers, and HTTP on `config.httpPort` (0 = any
 * free port).
 */
export async function startService<C extends KitConfig, O>(
  definition: ServiceDefinition<C, O>,
  config: C,
  logger: Logger = createLogger(definition.name),
  overrides?: O,
): Promise<RunningService> {
  const startup = new StartupStatus(definition.name, logger);
  const stopAnswering = await startup.listenUntilStarted(config.httpPort);
  let app: NestFastifyApplication | undefined;
  try {
    app = await createApp(definition, config, logger, overrides, startup);
    const servers = connectConsumers(definition, app, config, logger);
    await app.startAllMicroservices();
    // A server has its runtime once it listens.
    const consumers = runtimesOf(servers);
    const readiness = app.get(ReadinessRegistry);
    for (const [component, consumer] of Object.entries(consumers)) {
      readiness.register(component, () => consumer.isReady);
    }
    registerProgressChecks(readiness, { outbox: app.get(OutboxRelay), ...consumers });
    app.get(BackgroundWorkers).start(definition, app, readiness);
    definition.http?.beforeListen?.(app);
    await stopAnswering();
    await app.listen({ port: config.httpPort, host: '0.0.0.0' });
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : config.httpPort;
    const running = app;
    return { app, logger, url: `http://127.0.0.1:${port}`, consumers, close: () => running.close() };
  } catch (error) {
    await stopAnswering();
    await app?.close().catch(() => undefined);
    throw error;
  }
}

/**
 * `main.js rebuild`: applies the log to `config.databaseSchema` up to the plan's end, without HTTP
 * and without the workers, then stops; `ops replay <service>` starts it and shows its progress. The
 * projection's tables are emptied, the jobs' kept. A service that rebuilds in shares: the first
 * process starts the others (one per core) and prepares the schema; then each applies its share of
 * the partitions, and each stops once every partition got to the plan's end.
 */
export async function rebuildService<C extends KitConfig, O>(
  definition: ServiceDefinition<C, O>,
  config: C,
  plan: RebuildPlan,
  logger: Logger = createLogger(definition.name),
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
  const app = await createApp(definition, config, logger, undefined);
  await app.init();
  const dataSource = app.get(DataSource);
  if (share.index === 0) {
    const tables = definition.projection.map((entity) => dataSource.getMetadata(entity).tableName);
    const { emptied } = await prepareRebuild(dataSource, plan, tables);
    logger.info({ schema: config.databaseSchema, emptied, processes: share.of }, 'rebuild starting');
    shares?.prepared();
  }
  await prepared;
  const servers = connectConsumers(definition, app, config, logger, plan);
  await app.startAllMicroservices();
  const admin = createKafka({
    brokers: config.kafkaBrokers,
    clientId: `${definition.name}-rebuild`,
  }).admin();
  await admin.connect();
  try {
    while (failed === undefined && !(await rebuildDone(dataSource, admin, plan)))
      await new Promise((resolve) => setTimeout(resolve, 100));
  } finally {
    await admin.disconnect();
  }
  await shares?.exited.catch(() => undefined);
  const applied = Object.fromEntries(
    Object.entries(runtimesOf(servers)).map(([component, runtime]) => [component, runtime.stats.applied]),
  );
  logger.info(
    { schema: config.databaseSchema, share: `${share.index}/${share.of}`, applied },
    'rebuild done',
  );
  await app.close();
  if (failed !== undefined) throw failed;
}
