import 'reflect-metadata';

import { createLogger, logProcessWarnings } from '@cms/http';

import { loadConfig } from './config';
import { migrateWebhookDispatch } from './migrate';
import { rebuildWebhookDispatch, startWebhookDispatch } from './webhook-dispatch.app';

async function main(command: string | undefined): Promise<void> {
  const logger = createLogger('webhook-dispatch');
  logProcessWarnings(logger);
  if (command === 'rebuild') {
    const config = loadConfig(process.env, { rebuild: true });
    await rebuildWebhookDispatch(config, config.rebuild!, logger);
    process.exit(0);
  }
  if (command === 'migrate') process.exit(await migrateWebhookDispatch(logger));
  if (command !== undefined)
    throw new Error(`unknown command ${JSON.stringify(command)} (commands: rebuild, migrate)`);
  const config = loadConfig();
  const service = await startWebhookDispatch(config, logger);
  logger.info({ url: service.url }, 'webhook-dispatch listening');
}

main(process.argv[2]).catch((error: unknown) => {
  process.stderr.write(
    `${JSON.stringify({ level: 'fatal', service: 'webhook-dispatch', msg: 'webhook-dispatch failed to start', err: String(error) })}\n`,
  );
  process.exit(1);
});
