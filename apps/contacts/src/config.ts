import { ConfigError, EnvReader, serviceBaseConfig, type Env, type ServiceBaseConfig } from '@cms/config';
import { parseRebuildPlan, type RebuildPlan } from '@cms/kafka';

import { rebuildProcesses, rebuildShare, type RebuildShare } from '@cms/service-kit/shares';

export { consumerGroup } from '@cms/config';

export interface ContactsConfig extends ServiceBaseConfig {
  service: 'contacts';
  /**
   * Owns the checkpoints and names the consumer group. A blue/green rebuild runs a second instance
   * under another name (and schema), so it reads the log from the beginning.
   */
  consumerName: string;
  /** How long the broker waits for a silent consumer before handing its partitions to another. */
  kafkaSessionTimeoutMs: number;
  /** Set when started as `main.js rebuild` (by `ops replay`): what to rebuild, from REBUILD_PLAN. */
  rebuild?: RebuildPlan;
  /**
   * A rebuild runs in this many processes (REBUILD_PROCESSES, default one per core, at most 2), each
   * applying the partitions `partition % of === index` (REBUILD_SHARE, `index/of`, set by the first
   * process for the ones it starts).
   */
  rebuildShare?: RebuildShare;
}

function shareOf(reader: EnvReader): RebuildShare {
  const text = reader.optional('REBUILD_SHARE');
  if (text !== undefined) {
    const share = rebuildShare(text);
    if (!share) throw new ConfigError(`REBUILD_SHARE must be index/count, e.g. 1/2 (got ${text})`);
    return share;
  }
  const of = rebuildProcesses(reader.optional('REBUILD_PROCESSES'));
  if (of === undefined) throw new ConfigError('REBUILD_PROCESSES must be a whole number of at least 1');
  return { index: 0, of };
}

/** The schema the service's tables live in when DATABASE_SCHEMA is not set. */
export const DEFAULT_SCHEMA = 'contacts';

/** Validated once at boot; the process refuses to start on a bad value. */
export function loadConfig(env: Env = process.env, options: { rebuild?: boolean } = {}): ContactsConfig {
  const reader = new EnvReader(env);
  return {
    service: 'contacts',
    ...serviceBaseConfig(reader, { httpPort: 3001, schema: DEFAULT_SCHEMA }),
    consumerName: reader.consumerName('CONSUMER_NAME', 'contacts'),
    kafkaSessionTimeoutMs: reader.integer('KAFKA_SESSION_TIMEOUT_MS', 30_000, 6_000),
    ...(options.rebuild
      ? { rebuild: parseRebuildPlan(reader.required('REBUILD_PLAN')), rebuildShare: shareOf(reader) }
      : {}),
  };
}

export const CONTACTS_CONFIG = Symbol('CONTACTS_CONFIG');
