import 'reflect-metadata';

import { createLogger, logProcessWarnings } from '@cms/http';

import { loadConfig } from './config';
import { rebuildContacts, startContacts } from './contacts.app';
import type { Shares } from './rebuild-shares';

/** `main.js [rebuild]`: the service, or a rebuild of its schema (with the processes main.js started). */
export async function runContacts(command: string | undefined, shares?: Shares): Promise<void> {
  const logger = createLogger('contacts');
  logProcessWarnings(logger);
  if (command === 'rebuild') {
    const config = loadConfig(process.env, { rebuild: true });
    await rebuildContacts(config, config.rebuild!, logger, shares);
    process.exit(0);
  }
  if (command !== undefined)
    throw new Error(`unknown command ${JSON.stringify(command)} (commands: rebuild, migrate)`);
  const config = loadConfig();
  const contacts = await startContacts(config, logger);
  logger.info({ url: contacts.url }, 'contacts listening');
}
