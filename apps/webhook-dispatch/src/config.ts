import { topicNames, type Topics } from '@cms/contracts';

import { parseNetworks } from './ssrf/address-policy';

export interface DeliveryWorkerConfig {
  /** Deliveries in flight in this process at most, all endpoints together. */
  maxInFlight: number;
  /** Deliveries in flight to one endpoint at most, all replicas together. */
  perEndpoint: number;
  /** How often the worker looks for due deliveries when nothing woke it. */
  pollMs: number;
  /** A claimed delivery stays leased for the timeout plus this, then another worker may take it. */
  leaseMarginMs: number;
  /** How long an endpoint's open circuit breaker holds its deliveries back before one trial. */
  breakerResetMs: number;
}

export interface WebhookDispatchConfig {
  service: 'webhook-dispatch';
  httpPort: number;
  databaseUrl: string;
  databaseSchema: string;
  kafkaBrokers: string[];
  topics: Topics;
  /**
   * Owns the checkpoints and names the consumer groups (`<name>` for requests, `<name>.facts` for the
   * facts that become deliveries). A blue/green rebuild runs a second instance under another name.
   */
  consumerName: string;
  /** How long the broker waits for a silent consumer before handing its partitions to another. */
  kafkaSessionTimeoutMs: number;
  /** Base64 of the 32-byte key signing secrets are sealed with (shared with the gateway). */
  secretsKey: string;
  /** Seconds between attempts 1→2, …, 6→7: seven attempts in all. */
  retryDelaysSeconds: number[];
  timeoutMs: number;
  /** CIDRs that may be delivered to although they are not public unicast. */
  allowNetworks: string[];
  worker: DeliveryWorkerConfig;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

/** The specification's seven attempts "over about a day": 30 s, 5 min, 30 min, 2 h, 6 h, 15 h. */
export const DEFAULT_RETRY_DELAYS = [30, 300, 1800, 7200, 21600, 54000];
export const ATTEMPTS_PER_DELIVERY = DEFAULT_RETRY_DELAYS.length + 1;

function required(env: Env, name: string): string {
  const value = env[name];
  if (value === undefined || value.trim() === '') throw new ConfigError(`${name} is required`);
  return value.trim();
}

function integer(env: Env, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new ConfigError(`${name} must be an integer ≥ ${min}, got ${JSON.stringify(raw)}`);
  return value;
}

function retryDelays(env: Env): number[] {
  const raw = env.WEBHOOK_RETRY_DELAYS?.trim();
  if (!raw) return DEFAULT_RETRY_DELAYS;
  const delays = raw.split(',').map((part) => Number(part.trim()));
  if (
    delays.length !== DEFAULT_RETRY_DELAYS.length ||
    delays.some((delay) => !Number.isFinite(delay) || delay < 0)
  ) {
    throw new ConfigError(
      `WEBHOOK_RETRY_DELAYS must be ${DEFAULT_RETRY_DELAYS.length} comma-separated non-negative numbers of seconds, got ${JSON.stringify(raw)}`,
    );
  }
  return delays;
}

function secretsKey(env: Env): string {
  const key = required(env, 'SECRETS_KEY');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(key) || Buffer.from(key, 'base64').length !== 32) {
    throw new ConfigError('SECRETS_KEY must be 32 bytes, base64 encoded');
  }
  return key;
}

function consumerName(env: Env): string {
  const name = env.CONSUMER_NAME?.trim() || 'webhook-dispatch';
  if (!/^[a-z0-9][a-z0-9_.-]{0,99}$/.test(name))
    throw new ConfigError(`CONSUMER_NAME must match [a-z0-9][a-z0-9_.-]*, got ${JSON.stringify(name)}`);
  return name;
}

/** Validated once at boot; the process refuses to start on a bad value. */
export function loadConfig(env: Env = process.env): WebhookDispatchConfig {
  const allowNetworks = (env.WEBHOOK_ALLOW_NETWORKS ?? '')
    .split(',')
    .map((cidr) => cidr.trim())
    .filter(Boolean);
  try {
    parseNetworks(allowNetworks);
  } catch (error) {
    throw new ConfigError(`WEBHOOK_ALLOW_NETWORKS: ${(error as Error).message}`);
  }
  return {
    service: 'webhook-dispatch',
    httpPort: integer(env, 'HTTP_PORT', 3006, 0),
    databaseUrl: required(env, 'DATABASE_URL'),
    databaseSchema: env.DATABASE_SCHEMA?.trim() || 'webhook_dispatch',
    kafkaBrokers: required(env, 'KAFKA_BROKERS')
      .split(',')
      .map((broker) => broker.trim())
      .filter(Boolean),
    topics: topicNames(env.TOPIC_NAMESPACE?.trim() ?? ''),
    consumerName: consumerName(env),
    kafkaSessionTimeoutMs: integer(env, 'KAFKA_SESSION_TIMEOUT_MS', 30_000, 6_000),
    secretsKey: secretsKey(env),
    retryDelaysSeconds: retryDelays(env),
    timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000),
    allowNetworks,
    worker: {
      maxInFlight: integer(env, 'WEBHOOK_MAX_IN_FLIGHT', 64),
      perEndpoint: integer(env, 'WEBHOOK_ENDPOINT_CONCURRENCY', 4),
      pollMs: integer(env, 'WEBHOOK_POLL_MS', 500, 10),
      leaseMarginMs: integer(env, 'WEBHOOK_LEASE_MARGIN_MS', 15_000, 0),
      breakerResetMs: integer(env, 'WEBHOOK_BREAKER_RESET_MS', 30_000, 100),
    },
  };
}

/** The consumer group of a consumer: its bare name on the real topics, prefixed by the namespace otherwise. */
export function consumerGroup(config: WebhookDispatchConfig, name: string): string {
  return config.topics.requests === 'cms.requests.v1' ? name : `${config.topics.requests}.${name}`;
}

export const WEBHOOK_DISPATCH_CONFIG = Symbol('WEBHOOK_DISPATCH_CONFIG');
