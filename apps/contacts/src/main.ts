import 'reflect-metadata';

import { createLogger, logProcessWarnings } from '@cms/http';

import { loadConfig } from './config';
import { rebuildContacts, startContacts } from './contacts.app';

async function main(command: string | undefined): Promise<void> {
  const logger = createLogger('contacts');
  logProcessWarnings(logger);
  if (command === 'rebuild') {
    const config = loadConfig(process.env, { rebuild: true });
    await rebuildContacts(config, config.rebuild!, logger);
    process.exit(0);
  }
  if (command !== undefined)
    throw new Error(`unknown command ${JSON.stringify(command)} (commands: rebuild)`);
  const config = loadConfig();
  const contacts = await startContacts(config, logger);
  logger.info({ url: contacts.url }, 'contacts listening');
}

main(process.argv[2]).catch((error: unknown) => {
  process.stderr.write(
    `${JSON.stringify({ level: 'fatal', service: 'contacts', msg: 'contacts failed to start', err: String(error) })}\n`,
  );
  process.exit(1);
});
