import 'reflect-metadata';

import { databaseSettings, EnvReader, type Env } from '@cms/config';
import { createLogger, logProcessWarnings } from '@cms/http';
import { migrateCommand } from '@cms/persistence';
import type { Logger } from 'pino';

import { DEFAULT_SCHEMA } from './config';
import { CONTACTS_ENTITIES, CONTACTS_ALL_MIGRATIONS } from './infrastructure/infrastructure.module';

/**
 * `main.js migrate`: contacts' schema brought up to date ahead of a rollout (a Job), by the same
 * migrations the boot runs. Only the database settings are read, so the Job needs no Kafka. Resolves to the process's exit code.
 */
export async function migrateContacts(
  logger: Logger = createLogger('contacts'),
  env: Env = process.env,
): Promise<number> {
  logProcessWarnings(logger);
  return migrateCommand(logger, () => ({
    ...databaseSettings(new EnvReader(env), DEFAULT_SCHEMA),
    applicationName: 'contacts-migrate',
    entities: CONTACTS_ENTITIES,
    migrations: CONTACTS_ALL_MIGRATIONS,
  }));
}
