import 'reflect-metadata';

import { createLogger } from '@cms/http';

import { loadConfig } from './config';
import { rebuildWebhookDispatch, startWebhookDispatch } from './webhook-dispatch.app';

async function main(command: string | undefined): Promise<void> {
  const logger = createLogger('webhook-dispatch');
  if (command === 'rebuild') {
    const config = loadConfig(process.env, { rebuild: true });
    await rebuildWebhookDispatch(config, config.rebuild!, logger);
    process.exit(0);
  }
  if (command !== undefined)
    throw new Error(`unknown command ${JSON.stringify(command)} (commands: rebuild)`);
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
