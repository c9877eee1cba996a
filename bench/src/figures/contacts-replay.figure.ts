import { spawn } from 'node:child_process';
import { join } from 'node:path';

import { Client } from 'pg';

import { ROOT, type BenchSystem, type Tenant } from '../support/bench-system';
import type { CpuMeter, CpuUsage } from '../support/cpu-meter';
import { feedEventRequests, topicSize, waitApplied } from '../support/log-feeder';

export interface ContactsReplay {
  status: 'measured' | 'not available' | 'failed';
  reason?: string;
  /** Records in the requests topic when the replay started. */
  logRecords: number;
  /** ops' own report: `{"service":"contacts","mode":"in-place","records":N,"seconds":S,"rate":R}`. */
  report?: { records: number; seconds: number; rate: number };
  /** Rows of the projection before and after the rebuild: a rebuild that loses rows is not a figure. */
  rows?: { before: Record<string, number>; after: Record<string, number> };
  cpu?: CpuUsage;
}

const TABLES = ['contacts', 'events', 'consent_changes'];

async function countRows(databaseUrl: string, schema: string): Promise<Record<string, number>> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const counts: Record<string, number> = {};
    for (const table of TABLES) {
      const result = await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}"."${table}"`);
      counts[table] = Number(result.rows[0]!.n);
    }
    return counts;
  } finally {
    await client.end();
  }
}

interface ReplayRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runOps(
  args: string[],
  env: Record<string, string>,
  timeoutSeconds: number,
  track: (pid: number | undefined) => void,
): Promise<ReplayRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'apps', 'ops', 'src', 'main.js'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    track(child.pid);
    // SIGTERM interrupts the rebuild cleanly (ops resumes it on a rerun); the run stays bounded.
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutSeconds * 1000);
    child.once('exit', () => clearTimeout(timer));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', (error) => resolve({ code: -1, stdout, stderr: String(error) }));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The last stdout line that is ops' JSON report for contacts, if any. */
export function parseReplayReport(stdout: string): ContactsReplay['report'] {
  for (const line of stdout.trim().split('\n').reverse()) {
    try {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if (
        parsed.service === 'contacts' &&
        typeof parsed.records === 'number' &&
        typeof parsed.seconds === 'number' &&
        typeof parsed.rate === 'number'
      ) {
        return { records: parsed.records, seconds: parsed.seconds, rate: parsed.rate };
      }
    } catch {
      // Not the report line.
    }
  }
  return undefined;
}

/**
 * Rebuilding the contacts projection from the log: the requests topic is topped up towards `target`
 * records (event requests, fed as the gateway would write them, for at most `prepareSeconds`), contacts
 * applies them all and is stopped, and `ops replay contacts --in-place --json` rebuilds its schema from
 * the log. The rate is ops' own report; the rows before and after must match.
 */
export async function measureContactsReplay(
  system: BenchSystem,
  tenants: Tenant[],
  target: number,
  prepareSeconds: number,
  timeoutSeconds: number,
  meter: CpuMeter,
  log: (line: string) => void,
  track: (pid: number | undefined, name: string) => void,
  nodeArgs: string[],
): Promise<ContactsReplay> {
  const admin = system.kafka.admin();
  await admin.connect();
  const schema = system.schema('contacts');
  let logRecords: number;
  try {
    // The log already holds what the other phases sent. It grows in steps that contacts applies as it
    // would live, until it holds `target` records or the preparation has used its time.
    const deadline = Date.now() + prepareSeconds * 1000;
    let fed = 0;
    for (;;) {
      await waitApplied(admin, system.stack.databaseUrl, schema, system.topics.requests, 900_000, log);
      logRecords = await topicSize(admin, system.topics.requests);
      if (logRecords >= target || Date.now() >= deadline) break;
      const step = Math.min(target - logRecords, 5000);
      log(`log has ${logRecords} records; feeding ${step} more event requests`);
      await feedEventRequests(
        system.kafka,
        system.topics,
        tenants,
        step,
        (index) => ({
          name: 'page.viewed',
          contact: {
            phone: `+1415301${String((fed + index) % 10000).padStart(4, '0')}`,
            name: `Reader ${fed + index}`,
          },
        }),
        250_000,
      );
      fed += step;
    }
  } finally {
    await admin.disconnect();
  }
  const before = await countRows(system.stack.databaseUrl, schema);
  await system.stopService('contacts');
  log(`ops replay contacts --in-place over ${logRecords} records`);
  const start = meter.snapshot();
  const run = await runOps(
    ['replay', 'contacts', '--in-place', '--json', '--schema', schema],
    {
      ...system.serviceEnv('contacts'),
      // With --profile: ops and the rebuild it starts inherit these (CPU profile, statements counted to exit).
      ...(nodeArgs.length > 0 ? { NODE_OPTIONS: nodeArgs.join(' '), BENCH_SQL_ON_EXIT: '1' } : {}),
    },
    timeoutSeconds,
    (pid) => track(pid, 'ops-replay'),
  );
  const cpu = meter.between(start, meter.snapshot());
  if (run.code !== 0 && /usage: ops/.test(run.stderr) && !/replay/.test(run.stderr)) {
    return {
      status: 'not available',
      reason: 'this build of ops has no `replay` command (ops answered with its usage)',
      logRecords,
    };
  }
  const report = parseReplayReport(run.stdout);
  if (run.code !== 0 || !report) {
    return {
      status: 'failed',
      reason: `ops replay exited ${run.code}: ${(run.stderr || run.stdout).trim().slice(-400)}`,
      logRecords,
      cpu,
    };
  }
  const after = await countRows(system.stack.databaseUrl, schema);
  const same = TABLES.every((table) => before[table] === after[table]);
  return {
    status: same ? 'measured' : 'failed',
    ...(same ? {} : { reason: 'the rebuilt projection does not have the rows it had before' }),
    logRecords,
    report,
    rows: { before, after },
    cpu,
  };
}
