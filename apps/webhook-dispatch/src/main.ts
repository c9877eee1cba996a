import 'reflect-metadata';

import { createLogger } from '@cms/http';

import { loadConfig } from './config';
import { startWebhookDispatch } from './webhook-dispatch.app';

async function main(): Promise<void> {
  const logger = createLogger('webhook-dispatch');
  const config = loadConfig();
  const service = await startWebhookDispatch(config, logger);
  logger.info({ url: service.url }, 'webhook-dispatch listening');
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${JSON.stringify({ level: 'fatal', service: 'webhook-dispatch', msg: 'webhook-dispatch failed to start', err: String(error) })}\n`,
  );
  process.exit(1);
});
