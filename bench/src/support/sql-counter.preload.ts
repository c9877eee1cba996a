import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { Client } from 'pg';

/**
 * Loaded with `-r` beside the CPU profiler under `npm run bench -- --profile`: counts the SQL
 * statements the process sends through node-postgres (TypeORM's included), by statement. The first
 * SIGWINCH starts counting, the next writes `<BENCH_PROFILE_DIR>/<BENCH_PROFILE_NAME>-<pid>-sql-<n>.json`;
 * with BENCH_SQL_ON_EXIT=1 it counts from the start and writes `…-sql-exit.json` when the process exits
 * (the rebuild that `ops replay` starts cannot be signalled). Each statement is a round trip.
 */
const dir = process.env.BENCH_PROFILE_DIR ?? '.';
const name = process.env.BENCH_PROFILE_NAME ?? 'process';
const onExit = process.env.BENCH_SQL_ON_EXIT === '1';
let counts: Map<string, number> | undefined = onExit ? new Map() : undefined;
let written = 0;

type Query = (this: Client, ...args: unknown[]) => unknown;
const prototype = Client.prototype as unknown as { query: Query };
const original = prototype.query;
prototype.query = function (this: Client, ...args: unknown[]): unknown {
  if (counts) {
    const config = args[0];
    const text = typeof config === 'string' ? config : ((config as { text?: string } | null)?.text ?? '');
    // Schema names differ from run to run; the statement is the same.
    const key = text
      .replace(/\s+/g, ' ')
      .replace(/"[a-z_]+_bench_[a-z0-9_]+"\./g, '')
      .trim()
      .slice(0, 120);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return original.apply(this, args);
};

function write(suffix: string): void {
  if (!counts) return;
  const byStatement = [...counts].sort((a, b) => b[1] - a[1]);
  const statements = byStatement.reduce((sum, [, count]) => sum + count, 0);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `${name}-${process.pid}-sql-${suffix}.json`),
    JSON.stringify({ statements, byStatement: byStatement.slice(0, 40) }),
  );
}

if (onExit) process.once('exit', () => write('exit'));
process.on('SIGWINCH', () => {
  if (!counts) {
    counts = new Map();
    return;
  }
  written += 1;
  write(String(written));
  counts = undefined;
});
