import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Kafka } from 'kafkajs';

import { ROOT } from '../support/bench-system';
import type { CpuMeter, CpuUsage } from '../support/cpu-meter';

export interface KafkaProducerBaseline {
  status: 'measured' | 'not available';
  reason?: string;
  records?: number;
  recordsPerSecond?: number;
  mbPerSecond?: number;
  latencyMs?: { avg: number; p50: number; p95: number; p99: number; max: number };
  command?: string;
  cpu?: CpuUsage;
}

export function kafkaJarsDir(): string {
  return process.env.KAFKA_JARS_DIR ?? join(ROOT, '.local', 'kafka', 'libs');
}

export function kafkaVersion(): string | undefined {
  const marker = join(kafkaJarsDir(), '.kafka-version');
  return existsSync(marker) ? readFileSync(marker, 'utf8').trim() : undefined;
}

function javaBin(): string {
  const home = process.env.JAVA_HOME;
  return home && existsSync(join(home, 'bin', 'java')) ? join(home, 'bin', 'java') : 'java';
}

/** `300000 records sent, 95000.1 records/sec (92.77 MB/sec), 250.3 ms avg latency, 900.0 ms max latency, 240 ms 50th, 500 ms 95th, 700 ms 99th, 850 ms 99.9th.` */
export function parseProducerPerformance(output: string): KafkaProducerBaseline | undefined {
  const line = output
    .split('\n')
    .reverse()
    .find((candidate) => candidate.includes('50th'));
  const match =
    line &&
    /(\d+) records sent, ([\d.]+) records\/sec \(([\d.]+) MB\/sec\), ([\d.]+) ms avg latency, ([\d.]+) ms max latency, (\d+) ms 50th, (\d+) ms 95th, (\d+) ms 99th/.exec(
      line,
    );
  if (!match) return undefined;
  const [, records, rate, mb, avg, max, p50, p95, p99] = match.map(Number);
  return {
    status: 'measured',
    records: records!,
    recordsPerSecond: Math.round(rate!),
    mbPerSecond: mb!,
    latencyMs: { avg: avg!, p50: p50!, p95: p95!, p99: p99!, max: max! },
  };
}

/**
 * Kafka's own producer perf tool (kafka-producer-perf-test) from the broker's jars: 1 KB records,
 * acks=all, idempotence on, as fast as it can, into a topic with as many partitions as the requests topic.
 */
export async function kafkaProducerBaseline(
  kafka: Kafka,
  brokers: string[],
  topic: string,
  records: number,
  meter: CpuMeter,
  track: (pid: number | undefined, name: string) => void,
): Promise<KafkaProducerBaseline> {
  const jars = kafkaJarsDir();
  if (!existsSync(join(jars, `kafka-tools-${kafkaVersion() ?? ''}.jar`))) {
    return {
      status: 'not available',
      reason: `no Kafka tools jar under ${jars} (deploy/local/stack.sh fetches it)`,
    };
  }
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({
      waitForLeaders: true,
      topics: [{ topic, numPartitions: 24, replicationFactor: 1 }],
    });
  } finally {
    await admin.disconnect();
  }
  const args = [
    '-Xmx512m',
    `-Dlog4j2.configurationFile=${join(ROOT, 'deploy', 'local', 'kafka', 'tools-log4j2.properties')}`,
    '-cp',
    `${jars}/*`,
    'org.apache.kafka.tools.ProducerPerformance',
    '--topic',
    topic,
    '--num-records',
    String(records),
    '--record-size',
    '1024',
    '--throughput',
    '-1',
    '--producer-props',
    `bootstrap.servers=${brokers.join(',')}`,
    'acks=all',
    'enable.idempotence=true',
  ];
  const start = meter.snapshot();
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(javaBin(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    track(child.pid, 'kafka-perf-tool');
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (exitCode) => resolve({ code: exitCode, output }));
  });
  const cpu = meter.between(start, meter.snapshot());
  const parsed = parseProducerPerformance(output);
  if (code !== 0 || !parsed) {
    return {
      status: 'not available',
      reason: `ProducerPerformance exited ${code}: ${output.trim().slice(-400)}`,
    };
  }
  return {
    ...parsed,
    command: `java -cp '${jars}/*' org.apache.kafka.tools.ProducerPerformance ${args.slice(5).join(' ')}`,
    cpu,
  };
}
