import { rejectedOutcome, type Envelope, type RecordTypeRegistry } from '@cms/contracts';
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
import { consumerGroup, type WebhookDispatchConfig } from './config';
import { SOURCE } from './decisions/decision';
import { SourceFactsChunk } from './deliveries/fan-out/source-facts.consumer';
import { sourceTopics } from './deliveries/webhook-sources';
import type { SenderOverrides } from './dispatch/dispatch.module';
import { KAFKA, PROJECTION_ENTITIES, RECORD_REGISTRY } from './infrastructure/infrastructure.module';
import { FACTS_TRANSPORT, REQUESTS_TRANSPORT } from './transports';

/** The parts of an envelope an outcome needs, from a record that could not be decoded as a whole. */
function answerableEnvelope(
  value: Buffer | null,
): Pick<Envelope, 'id' | 'workspaceid' | 'correlationid' | 'time'> | undefined {
  try {
    const parsed = JSON.parse(value?.toString('utf8') ?? 'null') as Partial<Record<string, unknown>> | null;
    const { id, workspaceid, correlationid, time } = parsed ?? {};
    if ([id, workspaceid, correlationid, time].every((field) => typeof field === 'string')) {
      return { id, workspaceid, correlationid, time } as Pick<
        Envelope,
        'id' | 'workspaceid' | 'correlationid' | 'time'
      >;
    }
  } catch {
    // Not JSON: nobody to answer.
  }
  return undefined;
}

export interface WebhookDispatchApp {
  app: NestFastifyApplication;
  logger: Logger;
  url: string;
  requests: ConsumerRuntime;
  facts: ConsumerRuntime;
  close(): Promise<void>;
}

/** The two consumers: the same handlers live and when rebuilding (then under groups of the rebuild). */
function consumerServers(
  app: NestFastifyApplication,
  config: WebhookDispatchConfig,
  logger: Logger,
  rebuild?: RebuildPlan,
): { requestsServer: KafkaRecordServer; factsServer: KafkaRecordServer } {
  const relay = app.get(OutboxRelay);
  const groupOf = (name: string): string =>
    rebuild ? `${consumerGroup(config, name)}.rebuild.${rebuild.group}` : consumerGroup(config, name);
  const shared = {
    kafka: app.get<Kafka>(KAFKA),
    dataSource: app.get(DataSource),
    registry: app.get<RecordTypeRegistry>(RECORD_REGISTRY),
    deadLetterTopic: config.topics.deadLetters,
    onOutboxWritten: () => relay.kick(),
    sessionTimeoutMs: config.kafkaSessionTimeoutMs,
    metrics: app.get(Registry),
  };
  const requestsServer = new KafkaRecordServer({
    ...shared,
    name: config.consumerName,
    groupId: groupOf(config.consumerName),
    topics: [config.topics.requests],
    logger: logger.child({ component: 'requests-consumer' }),
    // Most of what it reads is other services' requests; its own (endpoints) can wait 20 ms.
    ...(rebuild ? { until: untilOf(rebuild, config.consumerName) } : { fetch: GATHERING_FETCH }),
    // A request that can never be applied still gets an answer, so its client is not left waiting:
    // even one whose data failed validation, as long as its envelope says whom to answer.
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
  requestsServer.setTransportId(REQUESTS_TRANSPORT);
  const factsName = `${config.consumerName}.facts`;
  const factsServer = new KafkaRecordServer({
    ...shared,
    name: factsName,
    groupId: groupOf(factsName),
    topics: sourceTopics().map((key) => config.topics[key]),
    logger: logger.child({ component: 'facts-consumer' }),
    // The facts of a chunk are fanned out with a statement or two, not two per fact.
    chunk: app.get(SourceFactsChunk),
    // Most facts make no delivery; a delivery made 20 ms later is no later for its endpoint.
    ...(rebuild ? { until: untilOf(rebuild, factsName) } : { fetch: GATHERING_FETCH }),
  });
  factsServer.setTransportId(FACTS_TRANSPORT);
  app.connectMicroservice({ strategy: requestsServer }, { inheritAppConfig: true });
  app.connectMicroservice({ strategy: factsServer }, { inheritAppConfig: true });
  return { requestsServer, factsServer };
}

async function createApp(
  config: WebhookDispatchConfig,
  logger: Logger,
  overrides: SenderOverrides,
): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, logger, overrides),
    // Only the gateway calls this service: its X-Request-Id is the correlation id here too.
    createFastifyAdapter({ logger, trustCallerRequestId: true }),
    { bufferLogs: true },
  );
  bootstrapHttp(app, { service: 'webhook-dispatch', logger });
  app.enableShutdownHooks();
  return app;
}

/**
 * Builds and starts webhook-dispatch: the request consumer (endpoint requests from the gateway), the
 * facts consumer (facts of the source table → deliveries), the delivery worker, and the internal read
 * API on `config.httpPort` (0 = any free port).
 */
export async function startWebhookDispatch(
  config: WebhookDispatchConfig,
  logger: Logger = createLogger('webhook-dispatch'),
  overrides: SenderOverrides = {},
): Promise<WebhookDispatchApp> {
  const app = await createApp(config, logger, overrides);
  const { requestsServer, factsServer } = consumerServers(app, config, logger);
  await app.startAllMicroservices();
  const requests = requestsServer.unwrap<ConsumerRuntime>();
  const facts = factsServer.unwrap<ConsumerRuntime>();
  const readiness = app.get(ReadinessRegistry);
  readiness.register('requests-consumer', () => requests.isReady);
  readiness.register('facts-consumer', () => facts.isReady);
  registerProgressChecks(readiness, {
    outbox: app.get(OutboxRelay),
    'requests-consumer': requests,
    'facts-consumer': facts,
  });
  await app.listen({ port: config.httpPort, host: '0.0.0.0' });
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.httpPort;
  return {
    app,
    logger,
    url: `http://127.0.0.1:${port}`,
    requests,
    facts,
    close: () => app.close(),
  };
}

/**
 * `main.js rebuild` (config.rebuild set): applies the log to `config.databaseSchema` up to the plan's
 * end, without HTTP and without the delivery worker, then stops. Only webhook_endpoints is emptied;
 * the deliveries, their attempts and the failure counts are jobs, not projection, and stay.
 * `ops replay webhook-dispatch` starts it and shows its progress.
 */
export async function rebuildWebhookDispatch(
  config: WebhookDispatchConfig,
  plan: RebuildPlan,
  logger: Logger = createLogger('webhook-dispatch'),
): Promise<void> {
  const app = await createApp(config, logger, {});
  await app.init();
  let servers: ReturnType<typeof consumerServers> | undefined;
  await runRebuild({
    dataSource: app.get(DataSource),
    plan,
    projection: PROJECTION_ENTITIES,
    kafkaBrokers: config.kafkaBrokers,
    service: 'webhook-dispatch',
    schema: config.databaseSchema,
    logger,
    startConsumers: async () => {
      servers = consumerServers(app, config, logger, plan);
      await app.startAllMicroservices();
    },
    applied: () => ({
      requests: servers?.requestsServer.unwrap<ConsumerRuntime>().stats.applied,
      facts: servers?.factsServer.unwrap<ConsumerRuntime>().stats.applied,
    }),
  });
  await app.close();
}
