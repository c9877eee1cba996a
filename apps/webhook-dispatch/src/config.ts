import { ConfigError, EnvReader, serviceBaseConfig, type Env } from '@cms/config';
import { parseRebuildPlan } from '@cms/kafka';
import { SAFETY_POLL_MS, type KitConfig } from '@cms/service-kit';

import { parseNetworks } from '@cms/http';

export interface DeliveryWorkerConfig {
  /** Deliveries in flight in this process at most, all endpoints together. */
  maxInFlight: number;
  /** Deliveries in flight to one endpoint at most, all replicas together. */
  perEndpoint: number;
  /**
   * The safety poll: the longest the worker sleeps when no delivery is due (new deliveries, freed slots
   * and due times wake it sooner).
   */
  pollMs: number;
  /** A claimed delivery stays leased for the timeout plus this, then another worker may take it. */
  leaseMarginMs: number;
  /** How long an endpoint's open circuit breaker holds its deliveries back before one trial. */
  breakerResetMs: number;
}

/**
 * `consumerName` names the requests consumer's checkpoints and group, `<name>.facts` the facts
 * consumer's (the facts that become deliveries).
 */
export interface WebhookDispatchConfig extends KitConfig {
  service: 'webhook-dispatch';
  /** Base64 of the 32-byte key signing secrets are sealed with (shared with the gateway). */
  secretsKey: string;
  /** Seconds between attempts 1→2, …, 6→7: seven attempts in all. */
  retryDelaysSeconds: number[];
  timeoutMs: number;
  /** CIDRs that may be delivered to although they are not public unicast. */
  allowNetworks: string[];
  worker: DeliveryWorkerConfig;
}

export { ConfigError };

/** The specification's seven attempts "over about a day": 30 s, 5 min, 30 min, 2 h, 6 h, 15 h. */
export const DEFAULT_RETRY_DELAYS = [30, 300, 1800, 7200, 21600, 54000];
export const ATTEMPTS_PER_DELIVERY = DEFAULT_RETRY_DELAYS.length + 1;

function retryDelays(reader: EnvReader): number[] {
  const raw = reader.optional('WEBHOOK_RETRY_DELAYS');
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

/** The schema the service's tables live in when DATABASE_SCHEMA is not set. */
export const DEFAULT_SCHEMA = 'webhook_dispatch';

/** Validated once at boot; the process refuses to start on a bad value. */
export function loadConfig(
  env: Env = process.env,
  options: { rebuild?: boolean } = {},
): WebhookDispatchConfig {
  const reader = new EnvReader(env);
  const allowNetworks = (reader.optional('WEBHOOK_ALLOW_NETWORKS') ?? '')
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
    ...serviceBaseConfig(reader, { httpPort: 3006, schema: DEFAULT_SCHEMA }),
    consumerName: reader.consumerName('CONSUMER_NAME', 'webhook-dispatch'),
    kafkaSessionTimeoutMs: reader.integer('KAFKA_SESSION_TIMEOUT_MS', 30_000, 6_000),
    secretsKey: reader.key32('SECRETS_KEY'),
    retryDelaysSeconds: retryDelays(reader),
    timeoutMs: reader.integer('WEBHOOK_TIMEOUT_MS', 10_000),
    allowNetworks,
    worker: {
      maxInFlight: reader.integer('WEBHOOK_MAX_IN_FLIGHT', 64),
      perEndpoint: reader.integer('WEBHOOK_ENDPOINT_CONCURRENCY', 4),
      pollMs: reader.integer('WEBHOOK_POLL_MS', SAFETY_POLL_MS, 10),
      leaseMarginMs: reader.integer('WEBHOOK_LEASE_MARGIN_MS', 15_000, 0),
      breakerResetMs: reader.integer('WEBHOOK_BREAKER_RESET_MS', 30_000, 100),
    },
    ...(options.rebuild ? { rebuild: parseRebuildPlan(reader.required('REBUILD_PLAN')) } : {}),
  };
}

export const WEBHOOK_DISPATCH_CONFIG = Symbol('WEBHOOK_DISPATCH_CONFIG');
