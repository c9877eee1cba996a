import { spawn } from 'node:child_process';
import { join } from 'node:path';

import type { Admin } from 'kafkajs';
import type { Client } from 'pg';

import type { ServiceName, System } from './system';

const ROOT = join(__dirname, '..', '..', '..');
const OPS = join(ROOT, 'dist', 'apps', 'ops', 'src', 'main.js');

/** The Kafka plumbing every service schema has beside its own tables. */
export const PLUMBING = [
  'consumer_checkpoints',
  'outbox',
  'dead_letters',
  'replay_horizons',
  'replays',
  'migrations',
];

export interface OpsRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The built `ops` CLI as a process, with the environment of `service` (as an operator runs it). */
export function runOps(
  system: System,
  service: ServiceName,
  args: string[],
  onStderr?: (text: string) => void,
): { done: Promise<OpsRun>; kill(): void } {
  const child = spawn(process.execPath, [OPS, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...system.envOf(service) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    onStderr?.(stderr);
  });
  return {
    done: new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr }))),
    kill: () => child.kill('SIGINT'),
  };
}

/** `ops replay <service> --in-place --json` on `schema`; expects success and returns the JSON report. */
export async function replayInPlace(
  system: System,
  service: ServiceName,
  schema: string,
): Promise<Record<string, unknown>> {
  const run = await runOps(system, service, ['replay', service, '--in-place', '--schema', schema, '--json'])
    .done;
  expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(run.stdout.trim()) as Record<string, unknown>;
}

/** Every table of a schema but the plumbing, each with its rows in primary-key order. */
export async function tablesOf(db: Client, schema: string): Promise<Record<string, unknown[]>> {
  const tables = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY 1`,
    [schema],
  );
  const result: Record<string, unknown[]> = {};
  for (const { table_name: table } of tables.rows) {
    if (PLUMBING.includes(table)) continue;
    const keys = await db.query<{ column_name: string }>(
      `SELECT a.attname AS column_name FROM pg_index i
         JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
        WHERE i.indrelid = ($1 || '.' || $2)::regclass AND i.indisprimary ORDER BY a.attnum`,
      [`"${schema}"`, `"${table}"`],
    );
    const order = keys.rows.map((row) => `"${row.column_name}"`).join(', ');
    result[table] = (await db.query(`SELECT * FROM "${schema}"."${table}" ORDER BY ${order}`)).rows;
  }
  return result;
}

/** The value each free-standing sequence of the schema hands out next, by name. */
export async function nextIds(db: Client, schema: string): Promise<Record<string, number>> {
  const sequences = await db.query<{ name: string; increment: string }>(
    `SELECT c.relname AS name, s.seqincrement::text AS increment
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_sequence s ON s.seqrelid = c.oid
      WHERE n.nspname = $1 AND c.relkind = 'S'
        AND NOT EXISTS (SELECT 1 FROM pg_depend d
                         WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('a', 'i'))
      ORDER BY 1`,
    [schema],
  );
  const result: Record<string, number> = {};
  for (const { name, increment } of sequences.rows) {
    const state = await db.query<{ last_value: string; is_called: boolean }>(
      `SELECT last_value::text AS last_value, is_called FROM "${schema}"."${name}"`,
    );
    const { last_value: last, is_called: called } = state.rows[0]!;
    result[name] = Number(last) + (called ? Number(increment) : 0);
  }
  return result;
}

/** Records in a topic, all partitions together. */
export async function topicSize(admin: Admin, topic: string): Promise<number> {
  const offsets = await admin.fetchTopicOffsets(topic);
  return offsets.reduce((sum, mark) => sum + Number(mark.high) - Number(mark.low), 0);
}

/** Drops the schemas a blue/green replay left beside `schema` (the previous projections). */
export async function dropLeftovers(db: Client, schema: string): Promise<void> {
  const leftovers = await db
    .query<{ schema_name: string }>(
      `SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE $1`,
      [`${schema}_%`],
    )
    .catch(() => ({ rows: [] as Array<{ schema_name: string }> }));
  for (const { schema_name: name } of leftovers.rows) await db.query(`DROP SCHEMA "${name}" CASCADE`);
}
