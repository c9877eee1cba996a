import type { Logger } from 'pino';
import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';

import { createKafka } from '../client';
import { prepareRebuild, rebuildDone, type RebuildPlan } from './rebuild-plan';

export interface RunRebuildOptions {
  dataSource: DataSource;
  plan: RebuildPlan;
  /** The entities of the projection: their tables are emptied when the rebuild begins. */
  projection: Array<EntityTarget<ObjectLiteral>>;
  kafkaBrokers: string[];
  /** The service's name, for the log lines and the Kafka client id. */
  service: string;
  schema: string;
  logger: Logger;
  /** Starts the service's consumers with the plan (their `until` and group). */
  startConsumers(): Promise<void>;
  /** What the consumers applied, for the closing log line. */
  applied(): unknown;
}

/**
 * The body of every service's `main.js rebuild`: prepares the schema (horizons, emptied projection),
 * starts the consumers, and returns once each has reached the plan's end.
 */
export async function runRebuild(options: RunRebuildOptions): Promise<void> {
  const { dataSource, plan, logger, schema } = options;
  const tables = options.projection.map((entity) => dataSource.getMetadata(entity).tableName);
  const { emptied } = await prepareRebuild(dataSource, plan, tables);
  logger.info({ schema, emptied }, 'rebuild starting');
  await options.startConsumers();
  const admin = createKafka({
    brokers: options.kafkaBrokers,
    clientId: `${options.service}-rebuild`,
  }).admin();
  await admin.connect();
  try {
    while (!(await rebuildDone(dataSource, admin, plan)))
      await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    await admin.disconnect();
  }
  logger.info({ schema, applied: options.applied() }, 'rebuild done');
}
