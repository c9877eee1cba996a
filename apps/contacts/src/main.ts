import 'reflect-metadata';

import { createLogger, logProcessWarnings } from '@cms/http';

import { loadConfig } from './config';
import { startContacts } from './contacts.app';

async function main(): Promise<void> {
  const logger = createLogger('contacts');
  logProcessWarnings(logger);
  const config = loadConfig();
  const contacts = await startContacts(config, logger);
  logger.info({ url: contacts.url }, 'contacts listening');
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${JSON.stringify({ level: 'fatal', service: 'contacts', msg: 'contacts failed to start', err: String(error) })}\n`,
  );
  process.exit(1);
});
