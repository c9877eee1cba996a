import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from 'pg';

import type { CpuMeter, CpuUsage } from '../support/cpu-meter';

export interface PgCopyBaseline {
  status: 'measured' | 'not available';
  reason?: string;
  rows?: number;
  seconds?: number;
  rowsPerSecond?: number;
  cpu?: CpuUsage;
  serverVersion?: string;
}

const COLUMNS = [
  'id',
  'workspace_id',
  'name',
  'phone',
  'email',
  'source',
  'data',
  'marketing_consent',
  'value_times',
  'created_at',
  'updated_at',
];

async function writeCsv(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  const chunk = 10_000;
  for (let start = 0; start < rows; start += chunk) {
    let text = '';
    for (let i = start; i < Math.min(rows, start + chunk); i += 1) {
      text +=
        `${i + 1},${(i % 256) + 1},Contact ${i},+1${2_000_000_000 + i},c${i}@example.com,api,{},` +
        `"{""email"": true}",{},2026-01-01T00:00:00Z,2026-01-01T00:00:00Z\n`;
    }
    if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
}

/**
 * `COPY` of `rows` rows into a table shaped and indexed like the contacts projection's `contacts`
 * table (CREATE TABLE … LIKE … INCLUDING ALL), through psql from a file written beforehand: the
 * fastest way rows get into this Postgres, and the yardstick for rebuilding the projection.
 */
export async function pgCopyBaseline(
  databaseUrl: string,
  benchSchema: string,
  contactsSchema: string,
  rows: number,
  meter: CpuMeter,
  track: (pid: number | undefined, name: string) => void,
): Promise<PgCopyBaseline> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const dir = mkdtempSync(join(tmpdir(), 'bench-copy-'));
  const file = join(dir, 'contacts.csv');
  const table = `"${benchSchema}".copy_contacts`;
  try {
    const serverVersion = (await client.query<{ v: string }>("SELECT current_setting('server_version') AS v"))
      .rows[0]!.v;
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${benchSchema}"`);
    await client.query(`DROP TABLE IF EXISTS ${table}`);
    await client.query(`CREATE TABLE ${table} (LIKE "${contactsSchema}".contacts INCLUDING ALL)`);
    await writeCsv(file, rows);
    const start = meter.snapshot();
    const started = performance.now();
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(
        'psql',
        [
          databaseUrl,
          '-X',
          '-q',
          '-v',
          'ON_ERROR_STOP=1',
          '-c',
          `\\copy ${table} (${COLUMNS.join(', ')}) FROM '${file}' WITH (FORMAT csv)`,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      track(child.pid, 'psql');
      let text = '';
      child.stdout.on('data', (data: Buffer) => (text += data.toString()));
      child.stderr.on('data', (data: Buffer) => (text += data.toString()));
      child.once('error', (error) => resolve({ code: -1, output: String(error) }));
      child.once('exit', (exitCode) => resolve({ code: exitCode, output: text }));
    });
    const seconds = (performance.now() - started) / 1000;
    const cpu = meter.between(start, meter.snapshot());
    if (code !== 0)
      return { status: 'not available', reason: `psql \\copy failed: ${output.trim().slice(-300)}` };
    const copied = Number(
      (await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n,
    );
    if (copied !== rows)
      return { status: 'not available', reason: `COPY left ${copied} rows, expected ${rows}` };
    return {
      status: 'measured',
      rows,
      seconds: Math.round(seconds * 100) / 100,
      rowsPerSecond: Math.round(rows / seconds),
      cpu,
      serverVersion,
    };
  } finally {
    await client.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    await client.end();
    rmSync(dir, { recursive: true, force: true });
  }
}
