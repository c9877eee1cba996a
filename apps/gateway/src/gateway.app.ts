import { consumerGroup } from '@cms/config';
import { rejectedOutcome, type RecordTypeRegistry } from '@cms/contracts';
import { bootstrapHttp, createFastifyAdapter, createLogger, ReadinessRegistry } from '@cms/http';
import {
  GATHERING_FETCH,
  KafkaRecordServer,
  OutboxRelay,
  registerProgressChecks,
  runRebuild,
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
import { serveOpenApi } from './openapi/openapi.document';
import type { GatewayConfig } from './config';
import { KAFKA, PROJECTION_ENTITIES, RECORD_REGISTRY } from './infrastructure/infrastructure.module';

export interface GatewayApp {
  app: NestFastifyApplication;
  logger: Logger;
  url: string;
  close(): Promise<void>;
}

/** The consumer name of the gateway's requests: its checkpoints, and its consumer group. */
const CONSUMER = 'gateway';

/** The consumer of the requests topic: the same handlers live and when rebuilding. */
function requestsServer(
  app: NestFastifyApplication,
  config: GatewayConfig,
  logger: Logger,
  rebuild?: RebuildPlan,
): KafkaRecordServer {
  const relay = app.get(OutboxRelay);
  const group = consumerGroup(config.topics, CONSUMER);
  const server = new KafkaRecordServer({
    name: CONSUMER,
    groupId: rebuild ? `${group}.rebuild.${rebuild.group}` : group,
    sessionTimeoutMs: config.kafkaSessionTimeoutMs,
    topics: [config.topics.requests],
    kafka: app.get<Kafka>(KAFKA),
    dataSource: app.get(DataSource),
    registry: app.get<RecordTypeRegistry>(RECORD_REGISTRY),
    logger: logger.child({ component: 'requests-consumer' }),
    metrics: app.get(Registry),
    deadLetterTopic: config.topics.deadLetters,
    onOutboxWritten: () => relay.kick(),
    // Most of what it reads is other services' requests; its own (workspaces, keys) can wait 20 ms.
    ...(rebuild ? { until: untilOf(rebuild, CONSUMER) } : { fetch: GATHERING_FETCH }),
    // A request that can never be applied still gets an answer, so its client is not left waiting.
    onRejected: async ({ record, errorId }, context) => {
      if (!record) return;
      context.emit(
        config.topics.outcomes,
        rejectedOutcome(record, 'gateway', 500, [
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
  app.connectMicroservice({ strategy: server }, { inheritAppConfig: true });
  return server;
}

/** Builds and starts the gateway: HTTP on `config.httpPort` (0 = any free port) and its request consumer. */
export async function startGateway(
  config: GatewayConfig,
  logger: Logger = createLogger('gateway'),
): Promise<GatewayApp> {
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, logger),
    createFastifyAdapter({ logger }),
    {
      bufferLogs: true,
    },
  );
  bootstrapHttp(app, { service: 'gateway', logger });
  app.enableShutdownHooks();

  const server = requestsServer(app, config, logger);
  await app.startAllMicroservices();
  const readiness = app.get(ReadinessRegistry);
  readiness.register('requests-consumer', () => server.unwrap<ConsumerRuntime>().isReady);
  registerProgressChecks(readiness, {
    outbox: app.get(OutboxRelay),
    'requests-consumer': server.unwrap<ConsumerRuntime>(),
  });
  serveOpenApi(app);
  await app.listen({ port: config.httpPort, host: '0.0.0.0' });
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.httpPort;
  return {
    app,
    logger,
    url: `http://127.0.0.1:${port}`,
    close: () => app.close(),
  };
}

/**
 * `main.js rebuild` (config.rebuild set): applies the log to `config.databaseSchema` up to the plan's
 * end, without HTTP, then stops. It empties workspaces, api_keys and integrations, never the id
 * sequences (ids are minted before the log; `ops replay` carries them over in a blue/green switch).
 */
export async function rebuildGateway(
  config: GatewayConfig,
  plan: RebuildPlan,
  logger: Logger = createLogger('gateway'),
): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRebuild(config, logger),
    createFastifyAdapter({ logger }),
    { bufferLogs: true },
  );
  bootstrapHttp(app, { service: 'gateway', logger });
  app.enableShutdownHooks();
  await app.init();
  let server: KafkaRecordServer | undefined;
  await runRebuild({
    dataSource: app.get(DataSource),
    plan,
    projection: PROJECTION_ENTITIES,
    kafkaBrokers: config.kafkaBrokers,
    service: 'gateway',
    schema: config.databaseSchema,
    logger,
    startConsumers: async () => {
      server = requestsServer(app, config, logger, plan);
      await app.startAllMicroservices();
    },
    applied: () => server?.unwrap<ConsumerRuntime>().stats.applied,
  });
  await app.close();
}
