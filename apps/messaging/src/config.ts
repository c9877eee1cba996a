import { ConfigError, DEFAULT_PUBLIC_BASE_URL, EnvReader, serviceBaseConfig, type Env } from '@cms/config';
import { parseRebuildPlan } from '@cms/kafka';
import { parseNetworks } from '@cms/http';
import { SAFETY_POLL_MS, type KitConfig } from '@cms/service-kit';

/**
 * `consumerName` names the requests consumer's checkpoints and consumer group, `<name>.contacts` the
 * contacts projection's.
 */
export interface MessagingConfig extends KitConfig {
  service: 'messaging';
  /** Base64 of the 32-byte key channel credentials are sealed with (shared with the gateway). */
  secretsKey: string;
  /** The address customers and providers reach the gateway at, without a trailing slash. */
  publicBaseUrl: string;
  /** `twilio=http://…,meta=…` as given (the providers parse it); empty for the providers' own addresses. */
  providerBaseUrls: string;
  /** How long after a sandbox send its delivered receipt comes (read: twice as long). */
  sandboxStatusDelayMs: number;
  /** CIDRs push subscription endpoints may be at although they are not public. */
  allowNetworks: string[];
  /**
   * The send and timer workers: batches of `batchSize` jobs, `concurrency` of them in hand; woken by the
   * commit that adds work and by due times, `pollMs` is their safety poll.
   */
  sendWorker: { batchSize: number; bulkBatchSize: number; concurrency: number; pollMs: number };
}

export { ConfigError };

/** The schema the service's tables live in when DATABASE_SCHEMA is not set. */
export const DEFAULT_SCHEMA = 'messaging';

/** The `source` of the facts and outcomes it publishes. */
export const SOURCE = 'messaging';

function allowNetworks(reader: EnvReader): string[] {
  const cidrs = (reader.optional('WEBHOOK_ALLOW_NETWORKS') ?? '')
    .split(',')
    .map((cidr) => cidr.trim())
    .filter(Boolean);
  try {
    parseNetworks(cidrs);
  } catch (error) {
    throw new ConfigError(`WEBHOOK_ALLOW_NETWORKS: ${(error as Error).message}`);
  }
  return cidrs;
}

/** Validated once at boot; the process refuses to start on a bad value. */
export function loadConfig(env: Env = process.env, options: { rebuild?: boolean } = {}): MessagingConfig {
  const reader = new EnvReader(env);
  return {
    service: 'messaging',
    ...serviceBaseConfig(reader, { httpPort: 3007, schema: DEFAULT_SCHEMA }),
    consumerName: reader.consumerName('CONSUMER_NAME', 'messaging'),
    kafkaSessionTimeoutMs: reader.integer('KAFKA_SESSION_TIMEOUT_MS', 30_000, 6_000),
    secretsKey: reader.key32('SECRETS_KEY'),
    publicBaseUrl: reader.httpUrl('PUBLIC_BASE_URL', DEFAULT_PUBLIC_BASE_URL),
    providerBaseUrls: reader.string('PROVIDER_BASE_URLS', ''),
    sandboxStatusDelayMs: reader.integer('SANDBOX_STATUS_DELAY_MS', 100, 0),
    allowNetworks: allowNetworks(reader),
    sendWorker: {
      batchSize: reader.integer('SEND_WORKER_BATCH', 200, 1),
      bulkBatchSize: reader.integer('SEND_WORKER_BULK_BATCH', 50, 1),
      concurrency: reader.integer('SEND_WORKER_CONCURRENCY', 2, 1),
      pollMs: reader.integer('SEND_WORKER_POLL_MS', SAFETY_POLL_MS, 5),
    },
    ...(options.rebuild ? { rebuild: parseRebuildPlan(reader.required('REBUILD_PLAN')) } : {}),
  };
}

export const MESSAGING_CONFIG = Symbol('MESSAGING_CONFIG');
