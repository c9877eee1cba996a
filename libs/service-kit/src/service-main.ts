import { databaseSettings, EnvReader, type Env } from '@cms/config';
import { createLogger, logProcessWarnings } from '@cms/http';
import { migrateCommand } from '@cms/persistence';
import type { Logger } from 'pino';

import { entitiesOf, migrationsOf } from './infrastructure.module';
import type { Shares } from './rebuild-shares';
import { rebuildService, startService } from './service-app';
import type { KitConfig, ServiceDefinition } from './service-definition';

/**
 * `main.js migrate`: the service's schema brought up to date ahead of a rollout (a Job), by the same
 * migrations the boot runs. Only the database settings are read, so the Job needs no Kafka. Resolves
 * to the process's exit code.
 */
export async function migrateService<C extends KitConfig, O>(
  definition: ServiceDefinition<C, O>,
  logger: Logger = createLogger(definition.name),
  env: Env = process.env,
): Promise<number> {
  logProcessWarnings(logger);
  return migrateCommand(logger, () => ({
    ...databaseSettings(new EnvReader(env), definition.defaultSchema),
    applicationName: `${definition.name}-migrate`,
    entities: entitiesOf(definition),
    migrations: migrationsOf(definition),
  }));
}

/**
 * `main.js [migrate|rebuild]`: the service, its migrations as a Job, or a rebuild of its schema. A
 * start failure is one fatal JSON line and exit code 1.
 */
export async function runService<C extends KitConfig, O>(
  load: () => Promise<ServiceDefinition<C, O>>,
  name: string,
  command: string | undefined = process.argv[2],
  shares?: Shares,
): Promise<void> {
  try {
    const definition = await load();
    const logger = createLogger(definition.name);
    if (command === 'migrate') process.exit(await migrateService(definition, logger));
    logProcessWarnings(logger);
    if (command === 'rebuild') {
      const config = definition.loadConfig(process.env, { rebuild: true });
      await rebuildService(definition, config, config.rebuild!, logger, shares);
      process.exit(0);
    }
    if (command !== undefined)
      throw new Error(`unknown command ${JSON.stringify(command)} (commands: rebuild, migrate)`);
    const config = definition.loadConfig(process.env, {});
    const service = await startService(definition, config, logger);
    logger.info({ url: service.url }, `${definition.name} listening`);
  } catch (error) {
    process.stderr.write(
      `${JSON.stringify({ level: 'fatal', service: name, msg: `${name} failed to start`, err: String(error) })}\n`,
    );
    process.exit(1);
  }
}
