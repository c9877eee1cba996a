import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Topics } from '@cms/contracts';
import type { PartitionOffsets, RebuildPlan } from '@cms/kafka';
import { SingleBar } from 'cli-progress';
import type { Admin } from 'kafkajs';
import type { Client } from 'pg';

import {
  groupMembers,
  positionOf,
  positions,
  quoteIdent,
  schemaExists,
  tableExists,
  type PartitionPosition,
} from '../services/log-positions';
import { serviceSpec, UsageError, type ServiceSpec } from '../services/service-specs';

export type ReplayMode = 'in-place' | 'blue-green';

export interface ReplayOptions {
  service: string;
  mode: ReplayMode;
  /** The live schema; the service's default unless given. */
  schema?: string;
  /** Blue/green: the schema to build in (default `<schema>_rebuild`). */
  targetSchema?: string;
  /** Blue/green: build and catch up, but leave the switch to a later run. */
  noSwitch: boolean;
  json: boolean;
}

export interface ReplayReport {
  service: string;
  mode: ReplayMode;
  schema: string;
  records: number;
  seconds: number;
  rate: number;
  /** Blue/green: where the previous projection was kept. */
  previous_schema?: string;
  /** Blue/green without the switch: built and waiting. */
  switched?: boolean;
}

export interface ReplayContext {
  db: Client;
  admin: Admin;
  topics: Topics;
  /** The folder holding every app's `src/main.js` (dist/apps). */
  appsDir: string;
  env: NodeJS.ProcessEnv;
}

/** A rebuild that could not finish; running the same command again resumes it. */
export class ReplayInterrupted extends Error {}

interface Run {
  records: number;
  seconds: number;
}

const POLL_MS = 500;

function offsetsOf(
  list: PartitionPosition[],
  pick: (position: PartitionPosition) => bigint,
): PartitionOffsets {
  const offsets: PartitionOffsets = {};
  for (const position of list) {
    offsets[position.topic] ??= {};
    offsets[position.topic]![String(position.partition)] = pick(position).toString();
  }
  return offsets;
}

function byConsumer(
  spec: ServiceSpec,
  list: PartitionPosition[],
  pick: (position: PartitionPosition) => bigint,
): Record<string, PartitionOffsets> {
  return Object.fromEntries(
    spec.consumers.map((consumer) => [
      consumer.name,
      offsetsOf(
        list.filter((position) => position.consumer === consumer.name),
        pick,
      ),
    ]),
  );
}

/** Records between where the rebuild stands in `schema` and its `until`, all consumers together. */
async function remaining(
  ctx: ReplayContext,
  spec: ServiceSpec,
  schema: string,
  until: Record<string, PartitionOffsets>,
): Promise<bigint> {
  const now = await positions(ctx.db, ctx.admin, ctx.topics, spec, schema);
  let left = 0n;
  for (const position of now) {
    const end = BigInt(until[position.consumer]?.[position.topic]?.[String(position.partition)] ?? '0');
    const at = positionOf(position);
    if (end > at) left += end - at;
  }
  return left;
}

function totalOf(until: Record<string, PartitionOffsets>, list: PartitionPosition[]): bigint {
  let total = 0n;
  for (const position of list) {
    const end = BigInt(until[position.consumer]?.[position.topic]?.[String(position.partition)] ?? '0');
    if (end > position.low) total += end - position.low;
  }
  return total;
}

async function assertStopped(ctx: ReplayContext, spec: ServiceSpec): Promise<void> {
  const members = await groupMembers(ctx.admin, ctx.topics, spec);
  const running = [...members.entries()].filter(([, count]) => count > 0);
  if (running.length > 0) {
    throw new UsageError(
      `${spec.name} is running (${running.map(([name, count]) => `${count} member(s) in the group of ${name}`).join(', ')}): ` +
        `stop it first (e.g. kubectl scale deployment/${spec.name} --replicas=0), then run this again`,
    );
  }
}

async function waitStopped(ctx: ReplayContext, spec: ServiceSpec, json: boolean): Promise<void> {
  let told = false;
  for (;;) {
    const members = await groupMembers(ctx.admin, ctx.topics, spec);
    if ([...members.values()].every((count) => count === 0)) return;
    if (!told && !json) {
      process.stderr.write(
        `Caught up with the live ${spec.name}. Stop it to switch (e.g. kubectl scale deployment/${spec.name} --replicas=0); waiting…\n`,
      );
    }
    told = true;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/**
 * Starts `main.js rebuild` of the service on `schema` with the plan, shows its progress against the
 * plan's end, and resolves when it exits 0. SIGINT/SIGTERM stop it gracefully (a re-run resumes).
 */
async function runRebuild(
  ctx: ReplayContext,
  spec: ServiceSpec,
  schema: string,
  plan: RebuildPlan,
  label: string,
  json: boolean,
  /** The rebuild empties the projection first: it applies the whole log, whatever the checkpoints say now. */
  fresh = false,
): Promise<Run> {
  const until = Object.fromEntries(
    Object.entries(plan.consumers).map(([name, rebuild]) => [name, rebuild.until]),
  );
  const startPositions = await positions(ctx.db, ctx.admin, ctx.topics, spec, schema);
  const total = totalOf(until, startPositions);
  const records = fresh ? total : await remaining(ctx, spec, schema, until);
  const logPath = join(tmpdir(), `ops-replay-${spec.name}-${schema}-${plan.group}.log`);
  const log = createWriteStream(logPath, { flags: 'a' });
  const child = spawn(process.execPath, [join(ctx.appsDir, spec.name, 'src', 'main.js'), 'rebuild'], {
    env: { ...ctx.env, DATABASE_SCHEMA: schema, REBUILD_PLAN: JSON.stringify(plan), HTTP_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let interrupted = false;
  const stop = (): void => {
    interrupted = true;
    child.kill('SIGTERM');
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  const bar = json
    ? undefined
    : new SingleBar({
        format: `${label} [{bar}] {percentage}% | {value}/{total} records | {rate} records/s | {duration_formatted}`,
        noTTYOutput: true,
        notTTYSchedule: 5000,
        stream: process.stderr,
        hideCursor: true,
      });
  const started = Date.now();
  bar?.start(Number(total), Number(total - records), { rate: 0 });
  let emptied = !fresh || records === 0n;
  let code: number | null | undefined;
  while (code === undefined) {
    code = await Promise.race([
      exited,
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), POLL_MS)),
    ]);
    const left = await remaining(ctx, spec, schema, until).catch(() => undefined);
    if (left === undefined || left > records) continue;
    // Until the rebuild has emptied the projection, the old checkpoints say there is nothing left.
    if (!emptied && left === 0n && code === undefined) continue;
    emptied = true;
    const seconds = (Date.now() - started) / 1000;
    bar?.update(Number(total - left), {
      rate: Math.round(Number(records - left) / Math.max(seconds, 0.001)),
    });
  }
  bar?.stop();
  process.removeListener('SIGINT', stop);
  process.removeListener('SIGTERM', stop);
  await new Promise((resolve) => log.end(resolve));
  if (interrupted) {
    throw new ReplayInterrupted(
      `interrupted; the rebuild keeps its position: run the same command again to resume`,
    );
  }
  if (code !== 0) {
    const tail = readFileSync(logPath, 'utf8').trimEnd().split('\n').slice(-15).join('\n');
    throw new Error(`the rebuild of ${spec.name} exited with code ${code} (log: ${logPath}):\n${tail}`);
  }
  const seconds = (Date.now() - started) / 1000;
  return { records: Number(records), seconds };
}

async function unfinished(
  db: Client,
  schema: string,
  mode: ReplayMode,
): Promise<{ id: string; phase: string; target_schema: string } | undefined> {
  const result = await db.query<{ id: string; phase: string; target_schema: string }>(
    `SELECT id::text AS id, phase, target_schema FROM ${quoteIdent(schema)}.replays
      WHERE mode = $1 AND finished_at IS NULL ORDER BY id DESC LIMIT 1`,
    [mode],
  );
  return result.rows[0];
}

async function finish(db: Client, schema: string, id: string, records: number): Promise<void> {
  await db.query(
    `UPDATE ${quoteIdent(schema)}.replays SET phase = 'done', finished_at = now(), records = $2 WHERE id = $1`,
    [id, records],
  );
}

/** Copies a table that is not derived from the log from the live schema into the new one. */
async function carryTable(db: Client, live: string, target: string, table: string): Promise<void> {
  quoteIdent(table);
  const columns = await db.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2
      ORDER BY ordinal_position`,
    [target, table],
  );
  if (columns.rows.length === 0) throw new Error(`schema ${target} has no table ${table}`);
  const list = columns.rows.map((column) => `"${column.column_name}"`).join(', ');
  await db.query(
    `INSERT INTO ${quoteIdent(target)}.${quoteIdent(table)} (${list})
     SELECT ${list} FROM ${quoteIdent(live)}.${quoteIdent(table)}`,
  );
}

/**
 * Sequences that belong to no column hand out ids the log does not hold (the gateway mints ids before
 * a request enters the log): each one of the new schema continues from at least where the live one is,
 * so no id is handed out twice.
 */
async function carrySequences(db: Client, live: string, target: string): Promise<void> {
  const sequences = await db.query<{ name: string; increment: string }>(
    `SELECT c.relname AS name, s.seqincrement::text AS increment
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_sequence s ON s.seqrelid = c.oid
      WHERE n.nspname = $1 AND c.relkind = 'S'
        AND NOT EXISTS (SELECT 1 FROM pg_depend d
                         WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('a', 'i'))
        AND EXISTS (SELECT 1 FROM pg_class l JOIN pg_namespace ln ON ln.oid = l.relnamespace
                     WHERE ln.nspname = $2 AND l.relname = c.relname AND l.relkind = 'S')`,
    [target, live],
  );
  for (const { name, increment } of sequences.rows) {
    const next = async (schema: string): Promise<bigint> => {
      const state = await db.query<{ last_value: string; is_called: boolean }>(
        `SELECT last_value::text AS last_value, is_called FROM ${quoteIdent(schema)}.${quoteIdent(name)}`,
      );
      const { last_value: last, is_called: called } = state.rows[0]!;
      return called ? BigInt(last) + BigInt(increment) : BigInt(last);
    };
    const [liveNext, targetNext] = [await next(live), await next(target)];
    if (liveNext > targetNext) {
      await db.query('SELECT setval($1::regclass, $2, false)', [
        `${quoteIdent(target)}.${quoteIdent(name)}`,
        liveNext.toString(),
      ]);
    }
  }
}

function report(run: Run, fields: Omit<ReplayReport, 'records' | 'seconds' | 'rate'>): ReplayReport {
  return {
    ...fields,
    records: run.records,
    seconds: Math.round(run.seconds * 100) / 100,
    rate: Math.round(run.records / Math.max(run.seconds, 0.001)),
  };
}

/** Stop, empty the projection, apply the whole log again (DESIGN §6, in place). */
async function inPlace(
  ctx: ReplayContext,
  spec: ServiceSpec,
  schema: string,
  json: boolean,
): Promise<ReplayReport> {
  await assertStopped(ctx, spec);
  const existing = await unfinished(ctx.db, schema, 'in-place');
  const fresh = existing === undefined || existing.phase === 'preparing';
  const id =
    existing?.id ??
    (
      await ctx.db.query<{ id: string }>(
        `INSERT INTO ${quoteIdent(schema)}.replays (mode, phase, target_schema) VALUES ('in-place', 'preparing', $1) RETURNING id::text AS id`,
        [schema],
      )
    ).rows[0]!.id;
  const now = await positions(ctx.db, ctx.admin, ctx.topics, spec, schema);
  const until = byConsumer(spec, now, (position) => position.high);
  const plan: RebuildPlan = {
    replayId: id,
    group: `r${id}`,
    publish: true,
    consumers: Object.fromEntries(Object.entries(until).map(([name, offsets]) => [name, { until: offsets }])),
  };
  const run = await runRebuild(ctx, spec, schema, plan, `${spec.name} in place`, json, fresh);
  await finish(ctx.db, schema, id, run.records);
  return report(run, { service: spec.name, mode: 'in-place', schema });
}

/**
 * Build a second projection in a new schema while the live service runs, up to where the live one is
 * (emitting nothing: the live service published all of it); when the live service stops, apply the
 * rest (publishing from where the live one stopped) and swap the schemas (DESIGN §6, blue/green).
 */
async function blueGreen(
  ctx: ReplayContext,
  spec: ServiceSpec,
  schema: string,
  options: ReplayOptions,
): Promise<ReplayReport> {
  let row = await unfinished(ctx.db, schema, 'blue-green');
  const target = row?.target_schema ?? options.targetSchema ?? `${schema}_rebuild`.slice(0, 63);
  quoteIdent(target);
  if (!row) {
    if (await schemaExists(ctx.db, target)) {
      throw new UsageError(`schema ${target} already exists: drop it or name another with --target-schema`);
    }
    row = (
      await ctx.db.query<{ id: string; phase: string; target_schema: string }>(
        `INSERT INTO ${quoteIdent(schema)}.replays (mode, phase, target_schema) VALUES ('blue-green', 'building', $1)
         RETURNING id::text AS id, phase, target_schema`,
        [target],
      )
    ).rows[0]!;
  }
  const runs: Run[] = [];
  if (row.phase === 'building') {
    // Up to the live checkpoints, and no further: what lies beyond is the live service's to publish.
    const live = await positions(ctx.db, ctx.admin, ctx.topics, spec, schema);
    const until = byConsumer(spec, live, positionOf);
    const plan: RebuildPlan = {
      group: `r${row.id}`,
      publish: false,
      consumers: Object.fromEntries(
        Object.entries(until).map(([name, offsets]) => [name, { until: offsets, horizon: offsets }]),
      ),
    };
    runs.push(await runRebuild(ctx, spec, target, plan, `${spec.name} → ${target}`, options.json));
    if (options.noSwitch) {
      const run = runs[0]!;
      return report(run, { service: spec.name, mode: 'blue-green', schema: target, switched: false });
    }
    await waitStopped(ctx, spec, options.json);
    await ctx.db.query(`UPDATE ${quoteIdent(schema)}.replays SET phase = 'switching' WHERE id = $1`, [
      row.id,
    ]);
  }
  await assertStopped(ctx, spec);
  // The live service stopped for good: from its final checkpoints on, the new schema publishes. What the
  // live outbox still held, what is not derived from the log (jobs, counters) and the free-standing
  // sequences' positions move over, in one transaction, once (a resumed run finds the phase `tail`).
  const final = await positions(ctx.db, ctx.admin, ctx.topics, spec, schema);
  if (row.phase !== 'tail') {
    await ctx.db.query('BEGIN');
    try {
      for (const position of final) {
        await ctx.db.query(
          `INSERT INTO ${quoteIdent(target)}.replay_horizons (consumer, topic, partition, until_offset) VALUES ($1, $2, $3, $4)
           ON CONFLICT (consumer, topic, partition)
           DO UPDATE SET until_offset = GREATEST(replay_horizons.until_offset, EXCLUDED.until_offset)`,
          [position.consumer, position.topic, position.partition, positionOf(position).toString()],
        );
      }
      await ctx.db.query(
        `INSERT INTO ${quoteIdent(target)}.outbox (topic, key, value, headers, created_at)
         SELECT topic, key, value, headers, created_at FROM ${quoteIdent(schema)}.outbox ORDER BY id`,
      );
      await ctx.db.query(`DELETE FROM ${quoteIdent(schema)}.outbox`);
      for (const table of spec.carriedTables ?? []) await carryTable(ctx.db, schema, target, table);
      await carrySequences(ctx.db, schema, target);
      await ctx.db.query(`UPDATE ${quoteIdent(schema)}.replays SET phase = 'tail' WHERE id = $1`, [row.id]);
      await ctx.db.query('COMMIT');
    } catch (error) {
      await ctx.db.query('ROLLBACK');
      throw error;
    }
  }
  const until = byConsumer(spec, final, (position) => position.high);
  const plan: RebuildPlan = {
    group: `r${row.id}s`,
    publish: true,
    consumers: Object.fromEntries(Object.entries(until).map(([name, offsets]) => [name, { until: offsets }])),
  };
  runs.push(await runRebuild(ctx, spec, target, plan, `${spec.name} → ${target} (tail)`, options.json));
  const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const previous = `${schema.slice(0, 44)}_before_${stamp}`;
  const records = runs.reduce((sum, run) => sum + run.records, 0);
  await ctx.db.query('BEGIN');
  try {
    await ctx.db.query(
      `UPDATE ${quoteIdent(schema)}.replays SET phase = 'done', finished_at = now(), records = $2 WHERE id = $1`,
      [row.id, records],
    );
    await ctx.db.query(`ALTER SCHEMA ${quoteIdent(schema)} RENAME TO ${quoteIdent(previous)}`);
    await ctx.db.query(`ALTER SCHEMA ${quoteIdent(target)} RENAME TO ${quoteIdent(schema)}`);
    await ctx.db.query('COMMIT');
  } catch (error) {
    await ctx.db.query('ROLLBACK');
    throw error;
  }
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0);
  return report(
    { records, seconds },
    { service: spec.name, mode: 'blue-green', schema, previous_schema: previous, switched: true },
  );
}

/** `ops replay <service> --in-place | --blue-green`: rebuild a service's projection from the log. */
export async function replay(ctx: ReplayContext, options: ReplayOptions): Promise<number> {
  const spec = serviceSpec(options.service);
  const schema = options.schema ?? spec.schema;
  quoteIdent(schema);
  if (!(await tableExists(ctx.db, schema, 'replays'))) {
    throw new UsageError(
      `schema ${schema} has no replays table: start ${spec.name} on this version once (it migrates its schema), then run this again`,
    );
  }
  const result =
    options.mode === 'in-place'
      ? await inPlace(ctx, spec, schema, options.json)
      : await blueGreen(ctx, spec, schema, options);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } else {
    const lines = [
      `replayed ${result.service} (${result.mode}): ${result.records} records in ${result.seconds} s (${result.rate} records/s)`,
    ];
    if (result.switched === false)
      lines.push(`built in ${result.schema}; run the same command again to catch up and switch`);
    if (result.previous_schema)
      lines.push(
        `${result.service} now reads the rebuilt schema ${result.schema}: start it. The previous projection is kept as ${result.previous_schema}; drop it when satisfied.`,
      );
    else if (result.mode === 'in-place') lines.push(`start ${result.service} again`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return 0;
}
