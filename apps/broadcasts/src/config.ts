import { EnvReader, serviceBaseConfig, type Env } from '@cms/config';
import { parseRebuildPlan } from '@cms/kafka';
import { SAFETY_POLL_MS, type KitConfig } from '@cms/service-kit';

/** `consumerName` names the requests consumer's checkpoints and consumer group. */
export interface BroadcastsConfig extends KitConfig {
  service: 'broadcasts';
  /**
   * The fan-out worker: each turn serves up to `sendsPerTurn` sends, one batch of at most `batchSize`
   * members each; woken by the commits that start or resume a send, `pollMs` is its safety poll.
   */
  fanout: { batchSize: number; sendsPerTurn: number; pollMs: number };
  /** The schedule worker: batches of `batchSize` timers, `pollMs` its safety poll. */
  scheduleWorker: { batchSize: number; pollMs: number };
}

/** The schema the service's tables live in when DATABASE_SCHEMA is not set. */
export const DEFAULT_SCHEMA = 'broadcasts';

/** The `source` of the facts and outcomes it publishes. */
export const SOURCE = 'broadcasts';

/** Validated once at boot; the process refuses to start on a bad value. */
export function loadConfig(env: Env = process.env, options: { rebuild?: boolean } = {}): BroadcastsConfig {
  const reader = new EnvReader(env);
  return {
    service: 'broadcasts',
    ...serviceBaseConfig(reader, { httpPort: 3010, schema: DEFAULT_SCHEMA }),
    consumerName: reader.consumerName('CONSUMER_NAME', 'broadcasts'),
    kafkaSessionTimeoutMs: reader.integer('KAFKA_SESSION_TIMEOUT_MS', 30_000, 6_000),
    fanout: {
      batchSize: reader.integer('FANOUT_BATCH', 500, 1),
      sendsPerTurn: reader.integer('FANOUT_SENDS_PER_TURN', 8, 1),
      pollMs: reader.integer('FANOUT_POLL_MS', SAFETY_POLL_MS, 5),
    },
    scheduleWorker: {
      batchSize: reader.integer('SCHEDULE_TIMER_BATCH', 100, 1),
      pollMs: reader.integer('SCHEDULE_TIMER_POLL_MS', SAFETY_POLL_MS, 5),
    },
    ...(options.rebuild ? { rebuild: parseRebuildPlan(reader.required('REBUILD_PLAN')) } : {}),
  };
}

export const BROADCASTS_CONFIG = Symbol('BROADCASTS_CONFIG');
