import { EnvReader, serviceBaseConfig, type Env } from '@cms/config';
import { parseRebuildPlan } from '@cms/kafka';
import type { KitConfig } from '@cms/service-kit';

/** `consumerName` names the requests consumer's checkpoints and consumer group. */
export interface AutomationsConfig extends KitConfig {
  service: 'automations';
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
    ...(options.rebuild ? { rebuild: parseRebuildPlan(reader.required('REBUILD_PLAN')) } : {}),
  };
}

export const AUTOMATIONS_CONFIG = Symbol('AUTOMATIONS_CONFIG');
