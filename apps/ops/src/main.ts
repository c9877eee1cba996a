import 'reflect-metadata';

import { createLogger, logProcessWarnings } from '@cms/http';
import { createKafka } from '@cms/kafka';

import { loadConfig } from './config';
import { createTopics, showTopics } from './topics/topics.command';

const USAGE = `usage: ops <command>

commands:
  topics create     create the missing topics of the system (never changes existing ones)
  topics describe   show every topic against its spec; exit 1 on a mismatch
`;

async function main(argv: string[]): Promise<number> {
  logProcessWarnings(createLogger('ops', { level: 'warn' }));
  const command = argv.slice(0, 2).join(' ');
  if (command !== 'topics create' && command !== 'topics describe') {
    process.stderr.write(USAGE);
    return 2;
  }
  const config = loadConfig();
  const admin = createKafka({ brokers: config.kafkaBrokers, clientId: 'ops' }).admin();
  await admin.connect();
  try {
    return command === 'topics create' ? await createTopics(admin, config) : await showTopics(admin, config);
  } finally {
    await admin.disconnect();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`ops: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
