import { databaseSettings, EnvReader, type Env } from '@cms/config';
import { migrateCommand } from '@cms/persistence';
import type { Logger } from 'pino';

import { DEFAULT_SCHEMA } from './config';
import { GATEWAY_ENTITIES, GATEWAY_MIGRATIONS } from './infrastructure/infrastructure.module';

/**
 * `main.js migrate`: the gateway's schema brought up to date ahead of a rollout (a Job), by the same
 * migrations the boot runs. Only the database settings are read, so the Job needs neither Kafka, Redis
 * nor the gateway's secrets. Resolves to the process's exit code.
 */
export function migrateGateway(logger: Logger, env: Env = process.env): Promise<number> {
  return migrateCommand(logger, () => ({
    ...databaseSettings(new EnvReader(env), DEFAULT_SCHEMA),
    applicationName: 'gateway-migrate',
    entities: GATEWAY_ENTITIES,
    migrations: GATEWAY_MIGRATIONS,
  }));
}
