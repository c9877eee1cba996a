/**
 * Microbenchmark of the in-memory evaluation (not a test):
 *
 *   node -r @swc-node/register apps/segments/src/evaluation/evaluation-bench.ts [contacts=1000000]
 *
 * Builds the synthetic workspace, then times each typical filter: its first evaluation (which builds
 * the custom-field columns it names) and the median of later ones, with count, sample and reachable
 * as a preview asks them. One core, no database.
 */
// The contracts' classes carry validation decorators, which need the metadata polyfill loaded first.
import 'reflect-metadata';

import { readFilterCriteria } from '@cms/contracts';
import { parsePhoneNumberFromString } from 'libphonenumber-js';

import { buildSyntheticIndex, SYNTHETIC_FILTERS } from './synthetic-workspace';

const RUNS = 15;

function megabytes(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(0)} MB`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Wall time, and the process's CPU time (which other work on a shared machine does not inflate). */
function time<T>(work: () => T): { ms: number; cpuMs: number; result: T } {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const result = work();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, result };
}

function main(): void {
  const contacts = Number(process.argv[2] ?? 1_000_000);
  global.gc?.();
  const before = process.memoryUsage();
  // The bench's own reading of phone numbers; the service passes the contacts service's.
  const phoneE164 = (raw: string): string | undefined => parsePhoneNumberFromString(raw)?.number;
  const workspace = buildSyntheticIndex(contacts, { phoneE164 });
  global.gc?.();
  const after = process.memoryUsage();
  const { index, now } = workspace;
  console.log(
    `built ${workspace.contacts} contacts, ${workspace.events} events, ${workspace.suppressions} suppressions in ${workspace.buildMs.toFixed(0)} ms (${workspace.buildCpuMs.toFixed(0)} ms CPU; upserts only)`,
  );
  console.log(
    `memory of the index: heap ${megabytes(after.heapUsed - before.heapUsed)}, array buffers ${megabytes(after.arrayBuffers - before.arrayBuffers)}, rss ${megabytes(after.rss)}${global.gc ? '' : ' (run with --expose-gc for exact figures)'}`,
  );

  // Audience 1: half the workspace, as a caller would have it from an earlier evaluation.
  const audienceOne = index.evaluate(
    readFilterCriteriaOrThrow([{ field: 'data.plan', operator: 'in', value: ['pro', 'enterprise'] }]),
    { now, audience: () => index.all() },
  );
  const context = { now, audience: () => audienceOne };

  console.log(
    '\nfilter                          first ms  median ms  median CPU ms  count     sample ms  reachable ms',
  );
  for (const filter of SYNTHETIC_FILTERS) {
    const criteria = readFilterCriteriaOrThrow(filter.criteria);
    const first = time(() => index.evaluate(criteria, context));
    const runs = Array.from({ length: RUNS }, () => time(() => index.evaluate(criteria, context)));
    const set = first.result;
    const count = index.count(set);
    const sample = time(() => index.sample(set, 100));
    const reachable = time(() => index.reachable(set));
    console.log(
      `${filter.name.padEnd(32)}${first.ms.toFixed(1).padStart(8)}${median(runs.map((run) => run.ms))
        .toFixed(1)
        .padStart(11)}${median(runs.map((run) => run.cpuMs))
        .toFixed(1)
        .padStart(
          15,
        )}  ${String(count).padEnd(10)}${sample.ms.toFixed(1).padStart(9)}${reachable.ms.toFixed(1).padStart(14)}`,
    );
  }
  global.gc?.();
  const built = process.memoryUsage();
  console.log(
    `\nwith the custom-field columns these filters built: heap ${megabytes(built.heapUsed - before.heapUsed)}, array buffers ${megabytes(built.arrayBuffers - before.arrayBuffers)}`,
  );
  const members = time(() => index.members(index.all()));
  console.log(`members of all ${members.result.length} contacts, ascending: ${members.ms.toFixed(0)} ms`);
  const update = time(() => {
    const contact = { ...syntheticRow(index) };
    for (let round = 0; round < 10_000; round += 1) index.upsertContacts([contact]);
  });
  console.log(`10,000 single-contact updates: ${update.ms.toFixed(0)} ms`);
}

function syntheticRow(index: ReturnType<typeof buildSyntheticIndex>['index']) {
  const id = index.sample(index.all(), 1)[0]!;
  return {
    id,
    name: 'Changed Name',
    phone: '+447700999999',
    email: 'changed@example.com',
    external_id: null,
    source: 'api',
    data: { plan: 'team', score: 5, last_order_at: '2026-05-30T10:00:00Z' },
    marketing_consent: {
      whatsapp: true,
      sms: null,
      email: true,
      rcs: null,
      telegram: null,
      messenger: null,
      instagram: null,
      browser_push: null,
    },
    channels: { telegram: 'tg-changed', messenger: null, instagram: null, browser_push: null },
    tag_ids: [1, 7],
    created_at: Date.UTC(2025, 0, 1),
    updated_at: Date.UTC(2026, 4, 1),
  };
}

function readFilterCriteriaOrThrow(criteria: unknown[]) {
  const reading = readFilterCriteria(criteria);
  if (!reading.ok) throw new Error(JSON.stringify(reading.problems));
  return reading.criteria;
}

main();
