import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TestStack {
  kafkaBrokers: string[];
  databaseUrl: string;
  redisUrl: string;
  /** Where the addresses came from. */
  origin: 'environment' | 'local-stack' | 'testcontainers';
  stop(): Promise<void>;
}

/** The checkout: the nearest directory above with nx.json. */
export function workspaceRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'nx.json'))) {
    const parent = join(dir, '..');
    if (parent === dir) throw new Error('not inside the workspace');
    dir = parent;
  }
  return dir;
}

/** Reads `export NAME=value` lines written by deploy/local/stack.sh. */
function readStackEnv(): Record<string, string> {
  const file = join(workspaceRoot(), '.local', 'stack.env');
  if (!existsSync(file)) return {};
  const values: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^export ([A-Z_]+)=["']?(.*?)["']?$/.exec(line.trim());
    if (match) values[match[1]!] = match[2]!;
  }
  return values;
}

function dockerReachable(): boolean {
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

let shared: Promise<TestStack> | undefined;

/**
 * The Kafka, Postgres and Redis the tests talk to: the addresses in the environment
 * (KAFKA_BROKERS, DATABASE_URL, REDIS_URL), else the running local stack, else containers when a
 * Docker engine is reachable. One per test process.
 */
export function testStack(): Promise<TestStack> {
  shared ??= resolveStack();
  return shared;
}

async function resolveStack(): Promise<TestStack> {
  const fromEnv = {
    KAFKA_BROKERS: process.env.KAFKA_BROKERS,
    DATABASE_URL: process.env.DATABASE_URL,
    REDIS_URL: process.env.REDIS_URL,
  };
  const local = readStackEnv();
  const pick = (name: keyof typeof fromEnv): string | undefined => fromEnv[name] ?? local[name];
  const brokers = pick('KAFKA_BROKERS');
  const databaseUrl = pick('DATABASE_URL');
  const redisUrl = pick('REDIS_URL');
  if (brokers && databaseUrl && redisUrl) {
    return {
      kafkaBrokers: brokers.split(',').map((broker) => broker.trim()),
      databaseUrl,
      redisUrl,
      origin: fromEnv.KAFKA_BROKERS ? 'environment' : 'local-stack',
      stop: async () => undefined,
    };
  }
  if (dockerReachable()) return startContainers();
  throw new Error(
    'No test stack: set KAFKA_BROKERS, DATABASE_URL and REDIS_URL, or run `deploy/local/stack.sh up`, or make a Docker engine reachable.',
  );
}

async function startContainers(): Promise<TestStack> {
  // Loaded only here: the package is heavy and most runs use the local stack.
  const { GenericContainer, Wait } = await import('testcontainers');
  const kafka = await new GenericContainer('apache/kafka:4.1.1')
    .withExposedPorts({ container: 9092, host: 19092 })
    .withEnvironment({
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
      KAFKA_ADVERTISED_LISTENERS: 'PLAINTEXT://localhost:19092',
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false',
    })
    .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
    .start();
  const postgres = await new GenericContainer('postgres:16')
    .withExposedPorts(5432)
    .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust', POSTGRES_DB: 'cms' })
    .withWaitStrategy(Wait.forLogMessage(/ready to accept connections/, 2))
    .start();
  const redis = await new GenericContainer('redis:7').withExposedPorts(6379).start();
  return {
    kafkaBrokers: ['localhost:19092'],
    databaseUrl: `postgres://postgres@${postgres.getHost()}:${postgres.getMappedPort(5432)}/cms`,
    redisUrl: `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`,
    origin: 'testcontainers',
    stop: async () => {
      await Promise.all([kafka.stop(), postgres.stop(), redis.stop()]);
    },
  };
}
