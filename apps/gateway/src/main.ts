import 'reflect-metadata';

import { createLogger, logProcessWarnings } from '@cms/http';

import { loadConfig } from './config';
import { rebuildGateway, startGateway } from './gateway.app';
import { migrateGateway } from './migrate';

async function main(command: string | undefined): Promise<void> {
  const logger = createLogger('gateway');
  logProcessWarnings(logger);
  if (command === 'rebuild') {
    const config = loadConfig(process.env, { rebuild: true });
    await rebuildGateway(config, config.rebuild!, logger);
    process.exit(0);
  }
  if (command === 'migrate') process.exit(await migrateGateway(logger));
  if (command !== undefined)
    throw new Error(`unknown command ${JSON.stringify(command)} (commands: rebuild, migrate)`);
  const config = loadConfig();
  const gateway = await startGateway(config, logger);
  logger.info({ url: gateway.url }, 'gateway listening');
}

main(process.argv[2]).catch((error: unknown) => {
  process.stderr.write(
    `${JSON.stringify({ level: 'fatal', service: 'gateway', msg: 'gateway failed to start', err: String(error) })}\n`,
  );
  process.exit(1);
});
