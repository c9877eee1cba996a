import { EnvReader, serviceBaseConfig, type Env } from '@cms/config';
import { parseRebuildPlan } from '@cms/kafka';
import { SAFETY_POLL_MS, type KitConfig } from '@cms/service-kit';

/** `consumerName` names the requests consumer's checkpoints and consumer group. */
export interface SegmentsConfig extends KitConfig {
  service: 'segments';
  /** Contacts the in-memory indexes of previews hold at most, all workspaces together. */
  indexMaxContacts: number;
  /**
   * The import worker: woken by the commit that queues a job or decides chunks, it looks for work at
   * least every `pollMs` (its safety poll); a workspace's jobs have at most `chunksAhead`
   * chunks sent to the contacts service and not decided yet, all together; a turn sends at most
   * `chunksPerTurn` chunks.
   */
  importWorker: { pollMs: number; chunksAhead: number; chunksPerTurn: number };
  /** How often expired uploads are looked for (IMPORT_UPLOAD_CLEANUP_POLL_MS). */
  uploadCleanupPollMs: number;
  /** What uploads may take of the service, so that no workspace's fill it for the others. */
  uploadLimits: UploadShareLimits;
}

/** How much of the service uploads may take (each over → 429). */
export interface UploadShareLimits {
  /** Uploads of one workspace in progress at once, over every replica (IMPORT_UPLOADS_PER_WORKSPACE). */
  perWorkspace: number;
  /** Uploads in progress at once in this replica (IMPORT_UPLOADS_AT_ONCE). */
  atOnce: number;
  /** Bytes of a workspace's uploads not expired yet (IMPORT_UPLOAD_QUOTA_BYTES). */
  quotaBytes: number;
}

/** The schema the service's tables live in when DATABASE_SCHEMA is not set. */
export const DEFAULT_SCHEMA = 'segments';

/** The `source` of the facts and outcomes it publishes. */
export const SOURCE = 'segments';

/** Validated once at boot; the process refuses to start on a bad value. */
export function loadConfig(env: Env = process.env, options: { rebuild?: boolean } = {}): SegmentsConfig {
  const reader = new EnvReader(env);
  return {
    service: 'segments',
    ...serviceBaseConfig(reader, { httpPort: 3008, schema: DEFAULT_SCHEMA }),
    consumerName: reader.consumerName('CONSUMER_NAME', 'segments'),
    kafkaSessionTimeoutMs: reader.integer('KAFKA_SESSION_TIMEOUT_MS', 30_000, 6_000),
    indexMaxContacts: reader.integer('SEGMENT_INDEX_MAX_CONTACTS', 5_000_000, 1_000),
    importWorker: {
      pollMs: reader.integer('IMPORT_WORKER_POLL_MS', SAFETY_POLL_MS, 5),
      chunksAhead: reader.integer('IMPORT_CHUNKS_AHEAD', 8, 1),
      chunksPerTurn: reader.integer('IMPORT_CHUNKS_PER_TURN', 8, 1),
    },
    uploadCleanupPollMs: reader.integer('IMPORT_UPLOAD_CLEANUP_POLL_MS', 60_000, 10),
    uploadLimits: {
      perWorkspace: reader.integer('IMPORT_UPLOADS_PER_WORKSPACE', 2, 1),
      atOnce: reader.integer('IMPORT_UPLOADS_AT_ONCE', 4, 1),
      quotaBytes: reader.integer('IMPORT_UPLOAD_QUOTA_BYTES', 250 * 1024 * 1024, 1),
    },
    ...(options.rebuild ? { rebuild: parseRebuildPlan(reader.required('REBUILD_PLAN')) } : {}),
  };
}

export const SEGMENTS_CONFIG = Symbol('SEGMENTS_CONFIG');
