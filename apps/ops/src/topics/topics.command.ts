import { describeTopics, ensureTopics, topicSpecs, type TopicReport } from '@cms/kafka';
import type { Admin } from 'kafkajs';

import type { OpsConfig } from '../config';

function print(reports: TopicReport[]): void {
  const width = Math.max(...reports.map((report) => report.name.length));
  for (const report of reports) {
    const line = `${report.name.padEnd(width)}  ${report.status.padEnd(8)}  partitions=${report.partitions}`;
    process.stdout.write(`${line}${report.problems.length > 0 ? `  ${report.problems.join('; ')}` : ''}\n`);
  }
}

function specsFor(config: OpsConfig) {
  return topicSpecs(
    { requestPartitions: config.requestPartitions, factPartitions: config.factPartitions },
    config.topics,
  );
}

/**
 * Creates every topic of the system that is missing and sets `max.message.bytes` on an existing one
 * where it differs (shown as `altered`); exit code 1 when an existing one differs from its spec otherwise.
 */
export async function createTopics(admin: Admin, config: OpsConfig): Promise<number> {
  const reports = await ensureTopics(admin, specsFor(config), config.replicationFactor);
  print(reports);
  return reports.some((report) => report.status === 'mismatch') ? 1 : 0;
}

/** Checks every topic against its spec, `max.message.bytes` included; exit code 1 when one differs. */
export async function showTopics(admin: Admin, config: OpsConfig): Promise<number> {
  const reports = await describeTopics(admin, specsFor(config));
  print(reports);
  return reports.some((report) => report.status === 'mismatch') ? 1 : 0;
}
