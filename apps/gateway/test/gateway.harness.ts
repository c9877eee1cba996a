import { randomBytes } from 'node:crypto';

import { topicNames, type Topics } from '@cms/contracts';
import { createKafka, ensureTopics, topicSpecs } from '@cms/kafka';
import { createDataSource, dropSchema } from '@cms/persistence';
import { startService, type RunningService } from '@cms/service-kit';
import { deleteTestTopics, eventually, testStack, uniqueName } from '@cms/testing';
import pino from 'pino';

import { loadConfig, type GatewayConfig } from '../src/config';
import { GATEWAY_SERVICE } from '../src/gateway.service';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
/** The SECRETS_KEY of every harness gateway (base64 of 32 bytes). */
export const SECRETS_KEY = randomBytes(32).toString('base64');

export interface Harness {
  gateway: RunningService;
  config: GatewayConfig;
  topics: Topics;
  call(
    method: string,
    path: string,
    options?: { body?: unknown; token?: string; headers?: Record<string, string> },
  ): Promise<Answer>;
  stop(): Promise<void>;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** A gateway of its own: topics under a unique namespace, a unique schema, an ephemeral port. */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const stack = await testStack();
  const namespace = uniqueName('gw').replace(/_/g, '-');
  const topics = topicNames(namespace);
  const kafka = createKafka({ brokers: stack.kafkaBrokers, clientId: 'gateway-test' });
  const admin = kafka.admin();
  await admin.connect();
  await ensureTopics(
    admin,
    topicSpecs({ requestPartitions: 3, factPartitions: 3, outcomePartitions: 2 }, topics),
  );
  const schema = uniqueName('gateway');
  const config = loadConfig({
    HTTP_PORT: '0',
    DATABASE_URL: stack.databaseUrl,
    DATABASE_SCHEMA: schema,
    KAFKA_BROKERS: stack.kafkaBrokers.join(','),
    REDIS_URL: stack.redisUrl,
    TOPIC_NAMESPACE: namespace,
    ADMIN_TOKEN,
    SECRETS_KEY,
    ...env,
  });
  const gateway = await startService(
    GATEWAY_SERVICE,
    config,
    pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
  );
  return {
    gateway,
    config,
    topics,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
      let body: string | undefined;
      if (options.body !== undefined) {
        body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(`${gateway.url}${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text === '' ? undefined : JSON.parse(text);
      } catch {
        parsed = text;
      }
      return { status: response.status, headers: response.headers, body: parsed };
    },
    async stop() {
      await gateway.close();
      const dataSource = createDataSource({
        url: stack.databaseUrl,
        schema,
        applicationName: 'gateway-test',
        entities: [],
        migrations: [],
      });
      await dataSource.initialize();
      await dropSchema(dataSource);
      await dataSource.destroy();
      await deleteTestTopics(admin, Object.values(topics));
      await admin.disconnect();
    },
  };
}

/** Every record on `topic` from the beginning, once `until` is satisfied with them. */
export async function readTopic(topic: string, until: (values: string[]) => boolean): Promise<string[]> {
  const stack = await testStack();
  const consumer = createKafka({ brokers: stack.kafkaBrokers, clientId: 'reader' }).consumer({
    groupId: uniqueName('reader'),
    maxWaitTimeInMs: 50,
  });
  const values: string[] = [];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({ eachMessage: async ({ message }) => void values.push(message.value!.toString()) });
  try {
    await eventually(`records on ${topic}`, async () => until(values), 20000);
  } finally {
    await consumer.disconnect();
  }
  return values;
}
