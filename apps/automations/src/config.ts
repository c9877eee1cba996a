import { EnvReader, serviceBaseConfig, type Env } from '@cms/config';
import { parseRebuildPlan } from '@cms/kafka';
import { SAFETY_POLL_MS, type KitConfig } from '@cms/service-kit';

/** `consumerName` names the requests consumer's checkpoints and consumer group. */
export interface AutomationsConfig extends KitConfig {
  service: 'automations';
  /**
   * The runs' timer worker: batches of `batchSize` timers; woken by the commit that sets a timer and by
   * the earliest due time, `pollMs` is its safety poll.
   */
  timerWorker: { batchSize: number; pollMs: number };
}

/** The schema the service's tables live in when DATABASE_SCHEMA is not set. */
export const DEFAULT_SCHEMA = 'automations';

/** The `source` of the facts and outcomes it publishes. */
export const SOURCE = 'automations';

/** Validated once at boot; the process refuses to start on a bad value. */
export function loadConfig(env: Env = process.env, options: { rebuild?: boolean } = {}): AutomationsConfig {
  const reader = new EnvReader(env);
  return {
    service: 'automations',
    ...serviceBaseConfig(reader, { httpPort: 3009, schema: DEFAULT_SCHEMA }),
    consumerName: reader.consumerName('CONSUMER_NAME', 'automations'),
    kafkaSessionTimeoutMs: reader.integer('KAFKA_SESSION_TIMEOUT_MS', 30_000, 6_000),
    timerWorker: {
      batchSize: reader.integer('RUN_TIMER_BATCH', 500, 1),
      pollMs: reader.integer('RUN_TIMER_POLL_MS', SAFETY_POLL_MS, 5),
    },
    ...(options.rebuild ? { rebuild: parseRebuildPlan(reader.required('REBUILD_PLAN')) } : {}),
  };
}

export const AUTOMATIONS_CONFIG = Symbol('AUTOMATIONS_CONFIG');
