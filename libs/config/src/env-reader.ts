import { topicNames, type Topics } from '@cms/contracts';

/** A bad or missing setting: the service refuses to start and says which. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

/** Reads typed settings from the environment; every method throws ConfigError naming the variable. */
export class EnvReader {
  constructor(private readonly env: Env = process.env) {}

  optional(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  }

  required(name: string): string {
    const value = this.optional(name);
    if (value === undefined) throw new ConfigError(`${name} is required`);
    return value;
  }

  string(name: string, fallback: string): string {
    return this.optional(name) ?? fallback;
  }

  integer(name: string, fallback: number, min = 1): number {
    const raw = this.optional(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min) {
      throw new ConfigError(`${name} must be an integer ≥ ${min}, got ${JSON.stringify(raw)}`);
    }
    return value;
  }

  /** A name usable as a Postgres schema, consumer name or group id. */
  identifier(name: string, fallback: string): string {
    const value = this.string(name, fallback);
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(value)) {
      throw new ConfigError(
        `${name} must match [a-z_][a-z0-9_]* (at most 63 characters), got ${JSON.stringify(value)}`,
      );
    }
    return value;
  }

  /** A consumer or checkpoint name: lower case, digits, `_`, `.` and `-`. */
  consumerName(name: string, fallback: string): string {
    const value = this.string(name, fallback);
    if (!/^[a-z0-9][a-z0-9_.-]{0,99}$/.test(value)) {
      throw new ConfigError(`${name} must match [a-z0-9][a-z0-9_.-]*, got ${JSON.stringify(value)}`);
    }
    return value;
  }

  /** A base64 AES-256 key (32 bytes), e.g. SECRETS_KEY, which seals secrets at rest and on the log. */
  key32(name: string): string {
    const key = this.required(name);
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(key) || Buffer.from(key, 'base64').length !== 32) {
      throw new ConfigError(`${name} must be 32 bytes, base64 encoded`);
    }
    return key;
  }

  httpUrl(name: string, fallback: string): string {
    const value = this.string(name, fallback);
    if (!/^https?:\/\/[^/\s]+/.test(value))
      throw new ConfigError(`${name} must be an http(s) URL, got ${JSON.stringify(value)}`);
    return value.replace(/\/+$/, '');
  }

  list(name: string): string[] {
    return this.required(name)
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0);
  }

  topics(): Topics {
    try {
      return topicNames(this.string('TOPIC_NAMESPACE', ''));
    } catch (error) {
      throw new ConfigError(`TOPIC_NAMESPACE: ${(error as Error).message}`);
    }
  }
}

/** What every service reads the same way. */
export interface ServiceBaseConfig {
  httpPort: number;
  databaseUrl: string;
  databaseSchema: string;
  kafkaBrokers: string[];
  topics: Topics;
  /**
   * KAFKA_FETCH_WAIT_MS: how long the broker holds a consumer's fetch when no record comes (a long
   * poll: a record answers it at once). At rest each consumer asks once per wait; a stopping
   * consumer also waits for its fetch in flight (the broker answers a connection's requests in
   * order, so nothing cuts it short), so the wait bounds what a stop or a rebalance may add too.
   * A group's consumer waits a third of its session (KAFKA_SESSION_TIMEOUT_MS) at most: it heartbeats
   * between fetches.
   */
  kafkaFetchWaitMs: number;
}

/**
 * The default of KAFKA_FETCH_WAIT_MS: at rest a consumer costs one fetch (and one heartbeat) every
 * 10 s. Each costs the broker more than the consumer (it names every partition the consumer reads):
 * the system at rest measured 5.0-6.4 % of a core with 5 s, 3.3 % with 15 s (docs/performance.md).
 * A stop or a rebalance may take up to this long besides, inside a pod's 30 s grace period.
 */
export const DEFAULT_KAFKA_FETCH_WAIT_MS = 10_000;

/** Where a service's tables are: DATABASE_URL, and DATABASE_SCHEMA or the service's own default. */
export function databaseSettings(reader: EnvReader, defaultSchema: string): { url: string; schema: string } {
  return {
    url: reader.required('DATABASE_URL'),
    schema: reader.identifier('DATABASE_SCHEMA', defaultSchema),
  };
}

export function serviceBaseConfig(
  reader: EnvReader,
  defaults: { httpPort: number; schema: string },
): ServiceBaseConfig {
  const database = databaseSettings(reader, defaults.schema);
  return {
    httpPort: reader.integer('HTTP_PORT', defaults.httpPort, 0),
    databaseUrl: database.url,
    databaseSchema: database.schema,
    kafkaBrokers: reader.list('KAFKA_BROKERS'),
    topics: reader.topics(),
    kafkaFetchWaitMs: reader.integer('KAFKA_FETCH_WAIT_MS', DEFAULT_KAFKA_FETCH_WAIT_MS, 100),
  };
}

/** A consumer group: the bare name on the real topics, prefixed by the topic namespace otherwise. */
export function consumerGroup(topics: Topics, name: string): string {
  const namespace = topics.requests.slice(0, -'cms.requests.v1'.length).replace(/\.$/, '');
  return namespace === '' ? name : `${namespace}.${name}`;
}
