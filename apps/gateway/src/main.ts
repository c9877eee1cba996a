import 'reflect-metadata';

import { createLogger, logProcessWarnings } from '@cms/http';

import { loadConfig } from './config';
import { startGateway } from './gateway.app';

async function main(): Promise<void> {
  const logger = createLogger('gateway');
  logProcessWarnings(logger);
  const config = loadConfig();
  const gateway = await startGateway(config, logger);
  logger.info({ url: gateway.url }, 'gateway listening');
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${JSON.stringify({ level: 'fatal', service: 'gateway', msg: 'gateway failed to start', err: String(error) })}\n`,
  );
  process.exit(1);
});
