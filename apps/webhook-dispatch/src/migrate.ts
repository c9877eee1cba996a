import { databaseSettings, EnvReader, type Env } from '@cms/config';
import { migrateCommand } from '@cms/persistence';
import type { Logger } from 'pino';

import { DEFAULT_SCHEMA } from './config';
import {
  WEBHOOK_DISPATCH_ENTITIES,
  WEBHOOK_DISPATCH_ALL_MIGRATIONS,
} from './infrastructure/infrastructure.module';

/**
 * `main.js migrate`: webhook-dispatch's schema brought up to date ahead of a rollout (a Job), by the
 * same migrations the boot runs. Only the database settings are read, so the Job needs neither Kafka
 * nor SECRETS_KEY. Resolves to the process's exit code.
 */
export function migrateWebhookDispatch(logger: Logger, env: Env = process.env): Promise<number> {
  return migrateCommand(logger, () => ({
    ...databaseSettings(new EnvReader(env), DEFAULT_SCHEMA),
    applicationName: 'webhook-dispatch-migrate',
    entities: WEBHOOK_DISPATCH_ENTITIES,
    migrations: WEBHOOK_DISPATCH_ALL_MIGRATIONS,
  }));
}
