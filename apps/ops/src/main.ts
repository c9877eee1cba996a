import 'reflect-metadata';

import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { createLogger, logProcessWarnings } from '@cms/http';
import { createKafka } from '@cms/kafka';
import { Client } from 'pg';

import { loadConfig, requireDatabaseUrl, segmentsUrl } from './config';
import { showImports } from './imports/imports.command';
import { showLag } from './lag/lag.command';
import { replay, ReplayInterrupted } from './replay/replay.command';
import { UsageError } from './services/service-specs';
import { createTopics, showTopics } from './topics/topics.command';

const USAGE = `usage: ops <command>

commands:
  topics create     create the missing topics of the system (never changes existing ones)
  topics describe   show every topic against its spec; exit 1 on a mismatch
  lag [service]     how far each consumer is behind the log, from the stored checkpoints
                      --schema S   the service's schema, if not its default   --json   as JSON
  replay <service> --in-place | --blue-green
                    rebuild the service's projection from the log, with a progress bar and a report
                      --in-place          the service must be stopped; its projection is emptied and
                                          rebuilt; start the service again afterwards
                      --blue-green        build a new schema while the service runs; when it has caught
                                          up, stop the service: the rest is applied and the schemas swap
                      --target-schema T   blue/green: the schema to build in (default <schema>_rebuild)
                      --no-switch         blue/green: build and catch up, then stop (run again to switch)
                      --schema S          the service's schema, if not its default
                      --json              print the report as one JSON line
                    Interrupting is safe: the same command resumes where the rebuild was.
  imports           a progress bar per audience import queued or running (rows, rows/s, ETA)
                      --workspace N   only that workspace's   --watch   redraw until none is left
                      --json          one JSON line per job

environment: KAFKA_BROKERS, DATABASE_URL (lag, replay), TOPIC_NAMESPACE, SEGMENTS_URL (imports), and
for replay whatever the service itself needs (it runs as \`main.js rebuild\` with the same environment).
`;

const OPTIONS = {
  json: { type: 'boolean', default: false },
  schema: { type: 'string' },
  'target-schema': { type: 'string' },
  'in-place': { type: 'boolean', default: false },
  'blue-green': { type: 'boolean', default: false },
  'no-switch': { type: 'boolean', default: false },
  workspace: { type: 'string' },
  watch: { type: 'boolean', default: false },
  help: { type: 'boolean', default: false },
} as const;

async function withDatabase<T>(run: (db: Client) => Promise<T>): Promise<T> {
  const db = new Client({ connectionString: requireDatabaseUrl(), application_name: 'ops' });
  await db.connect();
  try {
    return await run(db);
  } finally {
    await db.end();
  }
}

async function main(argv: string[]): Promise<number> {
  logProcessWarnings(createLogger('ops', { level: 'warn' }));
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [command, argument, ...extra] = positionals;
  if (values.help || command === undefined) {
    process.stderr.write(USAGE);
    return values.help ? 0 : 2;
  }
  if (command === 'imports') {
    if (argument !== undefined) throw new UsageError('imports takes no argument');
    const workspace = values.workspace === undefined ? undefined : Number(values.workspace);
    if (workspace !== undefined && !(Number.isSafeInteger(workspace) && workspace >= 1)) {
      throw new UsageError('--workspace takes a workspace id');
    }
    return showImports({
      segmentsUrl: segmentsUrl(),
      ...(workspace !== undefined ? { workspace } : {}),
      watch: values.watch,
      json: values.json,
    });
  }
  const config = loadConfig();
  const admin = createKafka({ brokers: config.kafkaBrokers, clientId: 'ops' }).admin();
  await admin.connect();
  try {
    switch (command) {
      case 'topics':
        if (argument === 'create' && extra.length === 0) return await createTopics(admin, config);
        if (argument === 'describe' && extra.length === 0) return await showTopics(admin, config);
        throw new UsageError('topics takes create or describe');
      case 'lag':
        if (extra.length > 0) throw new UsageError('lag takes at most one service');
        return await withDatabase((db) =>
          showLag(db, admin, config.topics, {
            ...(argument !== undefined ? { service: argument } : {}),
            ...(values.schema !== undefined ? { schema: values.schema } : {}),
            json: values.json,
          }),
        );
      case 'replay': {
        if (argument === undefined || extra.length > 0) throw new UsageError('replay takes one service');
        if (values['in-place'] === values['blue-green'])
          throw new UsageError('replay takes exactly one of --in-place and --blue-green');
        return await withDatabase((db) =>
          replay(
            { db, admin, topics: config.topics, appsDir: join(__dirname, '..', '..'), env: process.env },
            {
              service: argument,
              mode: values['in-place'] ? 'in-place' : 'blue-green',
              ...(values.schema !== undefined ? { schema: values.schema } : {}),
              ...(values['target-schema'] !== undefined ? { targetSchema: values['target-schema'] } : {}),
              noSwitch: values['no-switch'],
              json: values.json,
            },
          ),
        );
      }
      default:
        throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    }
  } finally {
    await admin.disconnect();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`ops: ${message}\n`);
    if (error instanceof UsageError) {
      process.stderr.write('(ops --help shows the commands)\n');
      process.exit(2);
    }
    process.exit(error instanceof ReplayInterrupted ? 130 : 1);
  },
);
