import { ConfigError, EnvReader, serviceBaseConfig, type Env } from '@cms/config';
import { isoDurationMs } from '@cms/contracts';
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
  bots: {
    /** BOT_CONVERSATION_TIMEOUT: a conversation expires this long after its last message. */
    conversationTimeoutMs: number;
    /** Where audience memberships are asked (the segments service). */
    segmentsUrl: string;
    /** The model: AI_BASE_URL (absent: AI bots end `ai_unavailable`), AI_API_KEY, AI_MODEL. */
    ai: { baseUrl: string; apiKey: string; model: string } | null;
    /** Model calls in flight at once, and at most this many of one workspace. */
    modelConcurrency: number;
    modelCallsPerWorkspace: number;
    /** How long a worker holds a call it asks the model: longer than its minute of retries. */
    modelLeaseMs: number;
  };
}

/** The schema the service's tables live in when DATABASE_SCHEMA is not set. */
export const DEFAULT_SCHEMA = 'automations';

/** The `source` of the facts and outcomes it publishes. */
export const SOURCE = 'automations';

function conversationTimeout(text: string): number {
  const ms = isoDurationMs(text);
  if (!(ms > 0))
    throw new ConfigError(
      `BOT_CONVERSATION_TIMEOUT must be an ISO 8601 duration such as PT24H, got ${JSON.stringify(text)}`,
    );
  return ms;
}

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
    bots: {
      conversationTimeoutMs: conversationTimeout(reader.string('BOT_CONVERSATION_TIMEOUT', 'PT24H')),
      segmentsUrl: reader.httpUrl('SEGMENTS_URL', 'http://127.0.0.1:3008'),
      ai:
        reader.optional('AI_BASE_URL') === undefined
          ? null
          : {
              baseUrl: reader.httpUrl('AI_BASE_URL', ''),
              apiKey: reader.string('AI_API_KEY', ''),
              model: reader.string('AI_MODEL', 'gpt-4o-mini'),
            },
      modelConcurrency: reader.integer('BOT_MODEL_CONCURRENCY', 16, 1),
      modelCallsPerWorkspace: reader.integer('BOT_MODEL_CALLS_PER_WORKSPACE', 4, 1),
      modelLeaseMs: reader.integer('BOT_MODEL_LEASE_MS', 90_000, 1000),
    },
    ...(options.rebuild ? { rebuild: parseRebuildPlan(reader.required('REBUILD_PLAN')) } : {}),
  };
}

export const AUTOMATIONS_CONFIG = Symbol('AUTOMATIONS_CONFIG');
