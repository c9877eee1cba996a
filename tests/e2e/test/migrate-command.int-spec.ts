import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { SERVICE_NAMES } from '@cms/config';
import { freePort, testStack, uniqueName, type TestStack } from '@cms/testing';
import { Client } from 'pg';

import { System, type ServiceName } from '../src';
import { PLUMBING } from '../src/ops-replay';

/**
 * `main.js migrate`, what each service's migration Job runs (deploy/k8s/base/<service>/job-migrate.yaml),
 * from the built dist/ as a process, with the database settings alone (no Kafka, Redis or secrets): it
 * brings a fresh schema up to date and says which migrations it applied, finds nothing to do the second
 * time, lets one of two runs at once do the work, leaves nothing for the service's own boot, and fails
 * with a non-zero exit when the database cannot be reached.
 */

const ROOT = join(__dirname, '..', '..', '..');
const SERVICES = SERVICE_NAMES;

/** The tables each service's migrations create beside the plumbing every schema has. */
const OWN_TABLES: Record<ServiceName, string[]> = {
  gateway: ['workspaces', 'api_keys', 'integrations'],
  contacts: [
    'contacts',
    'contact_channels',
    'consent_changes',
    'workspace_usage',
    'tags',
    'contact_tags',
    'events',
    'inbound_receipts',
  ],
  'webhook-dispatch': [
    'webhook_endpoints',
    'webhook_deliveries',
    'webhook_attempts',
    'webhook_endpoint_failures',
  ],
  messaging: ['channels'],
  segments: ['audiences'],
  automations: ['workflows'],
  broadcasts: ['notifications'],
};

interface LogLine {
  level: string;
  service: string;
  msg: string;
  schema?: string;
  applied?: string[];
  err?: { type: string; message: string };
}

interface MigrateRun {
  code: number | null;
  lines: LogLine[];
  stderr: string;
}

let stack: TestStack;
let db: Client;
const schemas: string[] = [];

function freshSchema(service: ServiceName): string {
  const schema = uniqueName(`mig_${service}`);
  schemas.push(schema);
  return schema;
}

/** `node dist/apps/<service>/src/main.js migrate` with only `env` (and PATH); stdout read as JSON lines. */
function runMigrate(service: ServiceName, env: Record<string, string>): Promise<MigrateRun> {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'apps', service, 'src', 'main.js'), 'migrate'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      const text = stdout.trim();
      try {
        const lines = text === '' ? [] : text.split('\n').map((line) => JSON.parse(line) as LogLine);
        resolve({ code, lines, stderr });
      } catch {
        reject(new Error(`${service} migrate wrote a line that is not JSON:\n${stdout}\n${stderr}`));
      }
    });
  });
}

/** The run's last log line, after checking that every line is the service's and that it exited as expected. */
function outcome(service: ServiceName, run: MigrateRun, code: 0 | 1): LogLine {
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code, stderr: '' });
  expect(run.lines.length).toBeGreaterThan(0);
  for (const line of run.lines) expect(line.service).toBe(service);
  return run.lines.at(-1)!;
}

async function tablesIn(schema: string): Promise<string[]> {
  const result = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE'`,
    [schema],
  );
  return result.rows.map((row) => row.table_name).sort();
}

async function migrationsIn(schema: string): Promise<string[]> {
  const result = await db.query<{ name: string }>(`SELECT name FROM "${schema}".migrations ORDER BY id`);
  return result.rows.map((row) => row.name);
}

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'apps', 'gateway', 'src', 'main.js')))
    throw new Error('dist/ is missing: run `npm run build` (npm test does) before the end-to-end suites');
  stack = await testStack();
  db = new Client({ connectionString: stack.databaseUrl });
  await db.connect();
});

afterAll(async () => {
  for (const schema of schemas) await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await db.end();
});

describe.each(SERVICES)('%s migrate', (service) => {
  const database = (schema: string) => ({ DATABASE_URL: stack.databaseUrl, DATABASE_SCHEMA: schema });
  /**
   * The schema the first test migrates: the second runs the command on it again and the fourth starts
   * the service on it (each a process of its own, so the suite makes each schema once).
   */
  let migrated: string | undefined;
  const migratedSchema = (): string => {
    if (migrated === undefined) throw new Error('the first migration of this service did not succeed');
    return migrated;
  };

  it('migrates a fresh schema with the database settings alone, logging the migrations it applied', async () => {
    const schema = freshSchema(service);

    const last = outcome(service, await runMigrate(service, database(schema)), 0);

    expect(last).toMatchObject({ level: 'info', schema, msg: 'migrations applied' });
    expect(last.applied!.length).toBeGreaterThan(0);
    expect(await migrationsIn(schema)).toEqual(last.applied);
    expect(await tablesIn(schema)).toEqual(expect.arrayContaining([...PLUMBING, ...OWN_TABLES[service]]));
    migrated = schema;
  });

  it('finds nothing to do on a schema it already migrated, and changes nothing', async () => {
    const schema = migratedSchema();
    const migrations = await migrationsIn(schema);
    const tables = await tablesIn(schema);

    const last = outcome(service, await runMigrate(service, database(schema)), 0);

    expect(last).toMatchObject({
      level: 'info',
      schema,
      applied: [],
      msg: 'no migration to apply: the schema is up to date',
    });
    expect(await migrationsIn(schema)).toEqual(migrations);
    expect(await tablesIn(schema)).toEqual(tables);
  });

  it('applies each migration once when two runs start together on a new schema (a retried Job beside a booting pod)', async () => {
    // Not made beforehand: creating the schema is part of what the lock keeps to one run at a time.
    const schema = freshSchema(service);

    const runs = await Promise.all([
      runMigrate(service, database(schema)),
      runMigrate(service, database(schema)),
    ]);

    const applied = runs.map((run) => outcome(service, run, 0).applied!);
    const migrations = await migrationsIn(schema);
    expect(migrations.length).toBeGreaterThan(0);
    expect(applied.flat().sort()).toEqual([...migrations].sort());
    expect(applied.map((names) => names.length).sort()).toEqual([0, migrations.length]);
  });

  it('leaves nothing for the service itself: started on the migrated schema, it migrates nothing more', async () => {
    const schema = migratedSchema();
    const migrations = await migrationsIn(schema);
    const tables = await tablesIn(schema);

    const system = await System.start([service], { DATABASE_SCHEMA: schema });
    try {
      expect(await migrationsIn(schema)).toEqual(migrations);
      expect(await tablesIn(schema)).toEqual(tables);
    } finally {
      await system.stop();
    }
  });

  it('exits non-zero, logging the error, when the database cannot be reached', async () => {
    const schema = freshSchema(service);
    const closed = new URL(stack.databaseUrl);
    closed.hostname = '127.0.0.1';
    closed.port = String(await freePort());

    const last = outcome(
      service,
      await runMigrate(service, { DATABASE_URL: closed.toString(), DATABASE_SCHEMA: schema }),
      1,
    );

    expect(last).toMatchObject({ level: 'error', schema, msg: 'migration failed' });
    expect(last.err?.message).toMatch(/ECONNREFUSED/);
    expect(await tablesIn(schema)).toEqual([]);
  });

  it('exits non-zero, naming the setting, without DATABASE_URL', async () => {
    const last = outcome(service, await runMigrate(service, { DATABASE_SCHEMA: freshSchema(service) }), 1);

    expect(last).toMatchObject({ level: 'error', msg: 'migration failed' });
    expect(last.err).toMatchObject({ type: 'ConfigError', message: 'DATABASE_URL is required' });
  });
});
