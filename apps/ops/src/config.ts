import { SERVICE_CATALOG, upstreamUrlVariable } from '@cms/config';
import { topicNames, type Topics } from '@cms/contracts';
import { parseBrokers } from '@cms/kafka';

export interface OpsConfig {
  kafkaBrokers: string[];
  topics: Topics;
  requestPartitions: number;
  factPartitions: number;
  replicationFactor: number;
}

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return value;
}

export function loadConfig(): OpsConfig {
  return {
    kafkaBrokers: parseBrokers(process.env.KAFKA_BROKERS),
    topics: topicNames(process.env.TOPIC_NAMESPACE?.trim() ?? ''),
    requestPartitions: positiveInt('REQUEST_PARTITIONS', 24),
    factPartitions: positiveInt('FACT_PARTITIONS', 24),
    replicationFactor: positiveInt('KAFKA_REPLICATION_FACTOR', 1),
  };
}

/** Postgres, for the commands that read the services' schemas (lag, replay). */
export function requireDatabaseUrl(): string {
  const url = process.env.DATABASE_URL?.trim();
  if (!url) throw new Error('DATABASE_URL is required for this command');
  return url;
}

/** The segments service's internal address (imports): SEGMENTS_URL, or its port on this machine. */
export function segmentsUrl(): string {
  const configured = process.env[upstreamUrlVariable('segments')]?.trim();
  if (configured) return configured.replace(/\/+$/, '');
  const port = SERVICE_CATALOG.find((service) => service.name === 'segments')!.httpPort;
  return `http://127.0.0.1:${port}`;
}
