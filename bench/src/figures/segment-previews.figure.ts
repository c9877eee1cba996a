import { randomBytes } from 'node:crypto';

import { Client } from 'pg';

import type { BenchSystem } from '../support/bench-system';
import type { CpuMeter, CpuUsage } from '../support/cpu-meter';
import { percentile } from '../support/percentiles';
import { alignedTable } from '../support/report';
import { publishWorkspace, seedTagIds, type SeedCounts } from '../support/segment-seed';
import { WorkspaceKeys } from '../support/workspace-keys';

/** p50, p95 and the largest of a set of durations (ms), to a tenth of a millisecond. */
export interface Spread {
  p50: number;
  p95: number;
  max: number;
}

export interface SegmentSeeding extends SeedCounts {
  /** Facts written to the contacts topic a second (generation and produce requests, this process). */
  publishedPerSecond: number;
  publishSeconds: number;
  /** From the first fact published to the view holding every contact and event. */
  viewSeconds: number;
  /** Facts the segments service applied to its view a second over that time. */
  appliedPerSecond: number;
}

export interface FilterFigure {
  label: string;
  criteria: unknown[];
  /** The preview's `count`, and the hand-written SQL's count(*): they must be equal. */
  count: number;
  sqlCount: number;
  previewMs: Spread;
  sqlMs: Spread;
  /** Preview p95 over SQL p95. */
  ratio: number;
}

export interface SegmentFreshness {
  /** What was measured: the real path, a write through the API to the preview that counts it. */
  path: string;
  samples: number;
  /** Writes whose contact no preview counted within FRESH_TIMEOUT_MS. */
  missed: number;
  /** Write answered 201 → answer of the first preview that counts the contact. */
  visibleMs: Spread;
  /** Time between the end of one preview and the start of the next while waiting. */
  pollIntervalMs: number;
}

/** The first preview after the segments service restarts, once the workspace saved an audience. */
export interface SegmentRestart {
  /** From the restarted process's spawn to its /ready (the index warmer builds the indexes first). */
  readyMs: number;
  /** The first preview after /ready: its answer's status and time. */
  firstPreview: { status: number; ms: number };
}

export interface SegmentPreviews {
  contacts: number;
  workspaceId: number;
  seeding: SegmentSeeding;
  /** The workspace's first preview, which builds its in-memory index: first call → first 200. */
  indexBuildMs: number;
  timedCalls: number;
  filters: FilterFigure[];
  /** Over every timed call of every filter. */
  previewMs: Spread;
  sqlMs: Spread;
  worst: { label: string; p95: number };
  /** Labels of filters whose preview count differs from the SQL count: a bug in one of the two. */
  mismatches: string[];
  freshness: SegmentFreshness | { status: 'failed'; reason: string };
  restart: SegmentRestart | { status: 'failed'; reason: string };
  /** While the previews were timed. */
  cpu: CpuUsage;
}

export interface SegmentPreviewsOptions {
  contacts: number;
  /** Timed previews (and SQL counts) per filter, after one warm-up call each. */
  timedCalls: number;
  freshSamples: number;
}

/** Keys of the preview workspace: its limit is 600 requests a minute whatever the keys. */
const KEYS = 6;
const BUILD_TIMEOUT_MS = 600_000;
/** A failed answer quicker than the gateway's read timeout is a failure, not a build under way. */
const QUICK_FAILURE_MS = 5_000;
const QUICK_FAILURES = 5;
const VIEW_TIMEOUT_MS = 1_800_000;
const FRESH_TIMEOUT_MS = 10_000;
const FRESH_POLL_MS = 10;
/** The services besides segments that read the contacts topic: stopped for this phase (see below). */
const OTHER_READERS = ['messaging', 'webhook-dispatch'] as const;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (value: number): number => Math.round(value * 10) / 10;
  return {
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    max: round(sorted[sorted.length - 1] ?? 0),
  };
}

/** `now` in a filter's SQL values: the time of the call, as the preview's own clock gives it. */
const NOW = Symbol('now');

/** A typical filter, and the same filter written by hand in SQL over the segments view's tables. */
export interface BenchFilter {
  label: string;
  criteria: unknown[];
  /**
   * A condition on `c`, a row of `contacts` (`e`: of `contact_events`, `:view` the schema); $1 is the
   * workspace, $2… are `values` in order.
   */
  sql: string;
  values: Array<unknown>;
}

/**
 * The ten filters (issue 19: one field, a data range, a tag, consent and a channel, an event within 30
 * days, nested any/all/not), as a marketer writes them. The SQL is the same question put to Postgres:
 * case-insensitive text, a custom field compared only when it holds that type, a `not` that also holds
 * for contacts without the field, event windows on `occurred_at` in the past only.
 */
export function benchFilters(): BenchFilter[] {
  const tags = seedTagIds();
  const [vip, newsletter, , , , loyalty] = tags;
  const windowed = (days: number): string =>
    `e.occurred_at >= $3::timestamptz - interval '${days} days' AND e.occurred_at <= $3::timestamptz`;
  return [
    {
      label: 'name eq',
      criteria: [{ field: 'name', operator: 'eq', value: 'Anna Smith' }],
      sql: 'lower(c.name) = lower($2)',
      values: ['Anna Smith'],
    },
    {
      label: 'data.spent between 100 and 500',
      criteria: [{ field: 'data.spent', operator: 'between', value: [100, 500] }],
      sql: `jsonb_typeof(c.data->'spent') = 'number' AND (c.data->>'spent')::numeric BETWEEN $2 AND $3`,
      values: [100, 500],
    },
    {
      label: 'data.plan in [pro, business]',
      criteria: [{ field: 'data.plan', operator: 'in', value: ['pro', 'business'] }],
      sql: `jsonb_typeof(c.data->'plan') = 'string' AND lower(c.data->>'plan') = ANY($2::text[])`,
      values: [['pro', 'business']],
    },
    {
      label: 'tags has newsletter',
      criteria: [{ field: 'tags', operator: 'has', value: newsletter }],
      sql: 'c.tag_ids @> ARRAY[$2::bigint]',
      values: [newsletter],
    },
    {
      label: 'consent.whatsapp eq true + channel.telegram exists',
      criteria: [
        { field: 'consent.whatsapp', operator: 'eq', value: true },
        { field: 'channel.telegram', operator: 'exists' },
      ],
      sql: `c.marketing_consent->'whatsapp' = 'true'::jsonb AND c.channels->>'telegram' IS NOT NULL`,
      values: [],
    },
    {
      label: 'event.purchase performed within_last P30D',
      criteria: [{ field: 'event.purchase', operator: 'performed', value: { within_last: 'P30D' } }],
      sql: `EXISTS (SELECT 1 FROM :view.contact_events e
                     WHERE e.workspace_id = $1 AND e.contact_id = c.id AND e.name = $2 AND ${windowed(30)})`,
      values: ['purchase', NOW],
    },
    {
      label: 'event.page.viewed count_gte 2 within_last P90D',
      criteria: [
        { field: 'event.page.viewed', operator: 'count_gte', value: { count: 2, within_last: 'P90D' } },
      ],
      // Grouped once rather than counted per contact: the events table has no index by contact.
      sql: `c.id IN (SELECT e.contact_id FROM :view.contact_events e
                      WHERE e.workspace_id = $1 AND e.name = $2 AND ${windowed(90)}
                      GROUP BY e.contact_id HAVING count(*) >= 2)`,
      values: ['page.viewed', NOW],
    },
    {
      label: 'created_at within_last P30D',
      criteria: [{ field: 'created_at', operator: 'within_last', value: 'P30D' }],
      sql: `c.created_at >= $2::timestamptz - interval '30 days' AND c.created_at <= $2::timestamptz`,
      values: [NOW],
    },
    {
      label: 'all(any(tags has_any, data.spent gte), not(data.city eq))',
      criteria: [
        {
          all: [
            {
              any: [
                { field: 'tags', operator: 'has_any', value: [vip, loyalty] },
                { field: 'data.spent', operator: 'gte', value: 1000 },
              ],
            },
            { not: { field: 'data.city', operator: 'eq', value: 'Berlin' } },
          ],
        },
      ],
      sql: `(c.tag_ids && $2::bigint[]
              OR (jsonb_typeof(c.data->'spent') = 'number' AND (c.data->>'spent')::numeric >= $3))
            AND NOT COALESCE(jsonb_typeof(c.data->'city') = 'string' AND lower(c.data->>'city') = lower($4), false)`,
      values: [[vip, loyalty], 1000, 'Berlin'],
    },
    {
      label: 'name contains',
      criteria: [{ field: 'name', operator: 'contains', value: 'ann' }],
      sql: 'strpos(lower(c.name), lower($2)) > 0',
      values: ['ann'],
    },
  ];
}

interface Preview {
  status: number;
  count: number | undefined;
  ms: number;
  body: unknown;
}

async function preview(keys: WorkspaceKeys, criteria: unknown[]): Promise<Preview> {
  const answer = await keys
    .call<{ data?: { count?: number } }>('POST', '/api/v1/audience/preview', { filter_criteria: criteria })
    .catch((error: unknown) => ({
      status: 0,
      body: { error: String(error) } as { data?: { count?: number } },
      ms: Number.POSITIVE_INFINITY,
    }));
  return {
    status: answer.status,
    count: answer.status === 200 ? answer.body.data?.count : undefined,
    ms: answer.ms,
    body: answer.body,
  };
}

/**
 * Segments at scale (issue 19): a workspace of `contacts` contacts with tags, consent, linked channels,
 * custom data and about two events each is published as the contacts service's facts; once the
 * segments view holds them all, each of ten typical filters is previewed through the gateway (one
 * warm-up call, the workspace's first of which builds its in-memory index, then `timedCalls` one after
 * the other) and counted by hand in SQL over the same view (the same way), and the two counts must
 * agree. Then freshness: contacts written through the API, each timed from its 201 to the first
 * preview that counts it.
 */
export async function measureSegmentPreviews(
  system: BenchSystem,
  options: SegmentPreviewsOptions,
  meter: CpuMeter,
  log: (line: string) => void,
): Promise<SegmentPreviews> {
  await startSegments(system, log);
  const keys = await WorkspaceKeys.make(system, 'agency', KEYS);
  const view = `"${system.schema('segments')}"`;
  const client = new Client({ connectionString: system.stack.databaseUrl });
  await client.connect();
  try {
    await client.query("SET TIME ZONE 'UTC'");
    const seeding = await seed(system, client, view, keys.workspaceId, options.contacts, log);
    const filters = benchFilters();

    log(`first preview of workspace ${keys.workspaceId}: builds its index of ${seeding.contacts} contacts`);
    const buildStarted = performance.now();
    const first = await firstPreview(keys, filters[0]!.criteria, log);
    const indexBuildMs = Math.round(performance.now() - buildStarted);
    log(`index built: first preview answered after ${indexBuildMs} ms (count ${first})`);

    const start = meter.snapshot();
    const timed: Array<{ count: number; ms: number[] }> = [];
    for (const filter of filters) {
      const warm = await preview(keys, filter.criteria);
      if (warm.status !== 200 || warm.count === undefined) {
        throw new Error(`preview "${filter.label}" answered ${warm.status}: ${JSON.stringify(warm.body)}`);
      }
      const ms: number[] = [];
      for (let call = 0; call < options.timedCalls; call += 1) {
        const answer = await preview(keys, filter.criteria);
        if (answer.status !== 200 || answer.count !== warm.count) {
          throw new Error(
            `preview "${filter.label}" answered ${answer.status} with count ${answer.count} after ${warm.count}`,
          );
        }
        ms.push(answer.ms);
      }
      timed.push({ count: warm.count, ms });
      const shown = spread(ms);
      log(`preview ${filter.label}: count ${warm.count}, p50 ${shown.p50} ms, p95 ${shown.p95} ms`);
    }
    const cpu = meter.between(start, meter.snapshot());

    const counted: Array<{ count: number; ms: number[] }> = [];
    for (const filter of filters) {
      const run = (): Promise<{ count: number; ms: number }> =>
        sqlCount(client, view, keys.workspaceId, filter);
      const warm = await run();
      const ms: number[] = [];
      for (let call = 0; call < options.timedCalls; call += 1) ms.push((await run()).ms);
      counted.push({ count: warm.count, ms });
      const shown = spread(ms);
      log(`SQL ${filter.label}: count ${warm.count}, p50 ${shown.p50} ms, p95 ${shown.p95} ms`);
    }

    const figures: FilterFigure[] = filters.map((filter, index) => {
      const previewMs = spread(timed[index]!.ms);
      const sqlMs = spread(counted[index]!.ms);
      return {
        label: filter.label,
        criteria: filter.criteria,
        count: timed[index]!.count,
        sqlCount: counted[index]!.count,
        previewMs,
        sqlMs,
        ratio: sqlMs.p95 > 0 ? Math.round((previewMs.p95 / sqlMs.p95) * 1000) / 1000 : 0,
      };
    });
    const mismatches = figures.filter((figure) => figure.count !== figure.sqlCount);
    for (const figure of mismatches) {
      log(
        `MISMATCH "${figure.label}": the preview counts ${figure.count}, SQL ${figure.sqlCount}: ` +
          'one of the two is wrong',
      );
    }
    const worst = figures.reduce((a, b) => (b.previewMs.p95 > a.previewMs.p95 ? b : a));

    const freshness = await measureFreshness(keys, options.freshSamples, log).catch(failedFigure);
    const restart = await measureRestart(system, keys, filters[0]!.criteria, log).catch(failedFigure);

    return {
      contacts: options.contacts,
      workspaceId: keys.workspaceId,
      seeding,
      indexBuildMs,
      timedCalls: options.timedCalls,
      filters: figures,
      previewMs: spread(timed.flatMap((filter) => filter.ms)),
      sqlMs: spread(counted.flatMap((filter) => filter.ms)),
      worst: { label: worst.label, p95: worst.previewMs.p95 },
      mismatches: mismatches.map((figure) => figure.label),
      freshness,
      restart,
      cpu,
    };
  } finally {
    await client.end();
  }
}

function failedFigure(error: unknown): { status: 'failed'; reason: string } {
  return { status: 'failed', reason: error instanceof Error ? error.message : String(error) };
}

/**
 * A deploy, as the workspace sees it: once it has saved an audience, the segments service is stopped
 * and started again, and the first preview after its /ready is timed. The index warmer builds the
 * workspace's index before the replica reports ready, so that preview is as quick as any (the same
 * run's first preview of a cold index, which built it, is the baseline).
 */
async function measureRestart(
  system: BenchSystem,
  keys: WorkspaceKeys,
  criteria: unknown[],
  log: (line: string) => void,
): Promise<SegmentRestart> {
  const saved = await keys.call('POST', '/api/v1/audiences', {
    name: `bench restart ${randomBytes(4).toString('hex')}`,
    filter_criteria: criteria,
  });
  if (saved.status !== 201)
    throw new Error(`the audience was answered ${saved.status}: ${JSON.stringify(saved.body)}`);
  log('restarting segments (an audience is saved: its workspace is warmed before the replica is ready)');
  await system.stopService('segments');
  const started = performance.now();
  await system.start('segments');
  const readyMs = Math.round(performance.now() - started);
  const answer = await preview(keys, criteria);
  log(
    `segments ready after ${readyMs} ms; first preview answered ${answer.status} in ${Math.round(answer.ms)} ms`,
  );
  return { readyMs, firstPreview: { status: answer.status, ms: Math.round(answer.ms * 10) / 10 } };
}

/**
 * Segments is started (its view first catches up with what the earlier phases left in the topics),
 * and the other readers of the contacts topic are stopped: messaging keeps a projection of contacts
 * too, and both would spend the machine's two cores on millions of seeded facts that are not theirs
 * to measure here. Nothing after this phase needs them.
 */
export async function startSegments(system: BenchSystem, log: (line: string) => void): Promise<void> {
  for (const name of OTHER_READERS) {
    if (system.isRunning(name)) {
      log(`stopping ${name} for the segments phase`);
      await system.stopService(name);
    }
  }
  if (!system.isRunning('segments')) {
    log('starting segments');
    await system.start('segments');
  }
  await waitViewCaughtUp(system, 900_000, log);
}

/** Records of the contacts topic the segments view has not applied yet. */
async function viewBehind(system: BenchSystem, client: Client): Promise<number> {
  const admin = system.kafka.admin();
  await admin.connect();
  try {
    const high = await admin.fetchTopicOffsets(system.topics.contacts);
    const rows = await client.query<{ partition: number; next_offset: string }>(
      `SELECT partition, max(next_offset) AS next_offset FROM "${system.schema('segments')}".consumer_checkpoints
        WHERE topic = $1 GROUP BY partition`,
      [system.topics.contacts],
    );
    const applied = new Map(rows.rows.map((row) => [row.partition, Number(row.next_offset)]));
    return high.reduce((sum, p) => sum + Math.max(0, Number(p.high) - (applied.get(p.partition) ?? 0)), 0);
  } finally {
    await admin.disconnect();
  }
}

/** Waits until the segments view applied every record of the contacts topic. */
export async function waitViewCaughtUp(
  system: BenchSystem,
  timeoutMs: number,
  log: (line: string) => void,
  progress?: (behind: number) => void,
): Promise<void> {
  const client = new Client({ connectionString: system.stack.databaseUrl });
  await client.connect();
  const deadline = Date.now() + timeoutMs;
  let lastReport = Date.now();
  try {
    for (;;) {
      const behind = await viewBehind(system, client);
      progress?.(behind);
      if (behind === 0) return;
      if (Date.now() > deadline) throw new Error(`the segments view is still ${behind} facts behind`);
      if (Date.now() - lastReport >= 10_000) {
        log(`segments view: ${behind} facts of the contacts topic to apply`);
        lastReport = Date.now();
      }
      await sleep(500);
    }
  } finally {
    await client.end();
  }
}

async function seed(
  system: BenchSystem,
  client: Client,
  view: string,
  workspaceId: number,
  contacts: number,
  log: (line: string) => void,
): Promise<SegmentSeeding> {
  log(
    `publishing the facts of ${contacts} contacts (tags, data, consent, channels, events) to the contacts topic`,
  );
  const started = performance.now();
  const counts = await publishWorkspace(system.kafka, system.topics.contacts, {
    workspaceId,
    contacts,
    at: Date.now(),
  });
  const publishSeconds = (performance.now() - started) / 1000;
  log(
    `published ${counts.facts} facts (${Math.round(counts.bytes / 2 ** 20)} MiB) in ${publishSeconds.toFixed(1)} s; ` +
      'waiting for the segments view',
  );
  await waitViewCaughtUp(system, VIEW_TIMEOUT_MS, log);
  const viewSeconds = (performance.now() - started) / 1000;
  const held = await client.query<{ contacts: string; events: string }>(
    `SELECT (SELECT count(*) FROM ${view}.contacts WHERE workspace_id = $1) AS contacts,
            (SELECT count(*) FROM ${view}.contact_events WHERE workspace_id = $1) AS events`,
    [workspaceId],
  );
  const row = held.rows[0]!;
  if (Number(row.contacts) !== counts.contacts || Number(row.events) !== counts.events) {
    throw new Error(
      `the segments view holds ${row.contacts} contacts and ${row.events} events of the ${counts.contacts} and ${counts.events} published`,
    );
  }
  await client.query(`ANALYZE ${view}.contacts`);
  await client.query(`ANALYZE ${view}.contact_events`);
  log(`the view holds every contact and event after ${viewSeconds.toFixed(1)} s`);
  return {
    ...counts,
    publishSeconds: Math.round(publishSeconds * 10) / 10,
    publishedPerSecond: Math.round(counts.facts / publishSeconds),
    viewSeconds: Math.round(viewSeconds * 10) / 10,
    appliedPerSecond: Math.round(counts.facts / viewSeconds),
  };
}

/**
 * The first preview: answers its count once the index is built. The gateway gives up on a read after
 * 10 s while the build goes on, so a slow answer is asked again; quick failures are the service's.
 */
async function firstPreview(
  keys: WorkspaceKeys,
  criteria: unknown[],
  log: (line: string) => void,
): Promise<number> {
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  let failures = 0;
  for (;;) {
    const answer = await preview(keys, criteria);
    if (answer.status === 200 && answer.count !== undefined) return answer.count;
    const refused = answer.status > 0 && answer.status < 500;
    if (answer.ms < QUICK_FAILURE_MS) failures += 1;
    if (refused || failures >= QUICK_FAILURES) {
      throw new Error(
        `the first preview answered ${answer.status || 'nothing'}${refused ? '' : ` ${failures} times`}: ` +
          `${JSON.stringify(answer.body).slice(0, 300)} (the segments log has the cause)`,
      );
    }
    if (Date.now() > deadline) throw new Error(`no preview answered within ${BUILD_TIMEOUT_MS / 1000} s`);
    log(
      `first preview answered ${answer.status || 'nothing'} after ${Math.round(answer.ms)} ms; asking again`,
    );
    await sleep(1_000);
  }
}

export async function sqlCount(
  client: Client,
  view: string,
  workspaceId: number,
  filter: BenchFilter,
): Promise<{ count: number; ms: number }> {
  const now = new Date().toISOString();
  const values = filter.values.map((value) => (value === NOW ? now : value));
  const text = `SELECT count(*) AS n FROM ${view}.contacts c WHERE c.workspace_id = $1 AND (${filter.sql.replaceAll(':view', view)})`;
  const started = performance.now();
  const result = await client.query<{ n: string }>(text, [workspaceId, ...values]);
  return { count: Number(result.rows[0]!.n), ms: performance.now() - started };
}

/**
 * A contact written through the API (`POST /api/v1/contacts/upsert`, answered 201 once the contacts
 * service decided it) under a name nobody else has, then previews of `name eq` that name one after the
 * other until one counts it: the time from the 201 to that preview's answer.
 */
async function measureFreshness(
  keys: WorkspaceKeys,
  samples: number,
  log: (line: string) => void,
): Promise<SegmentFreshness> {
  const visible: number[] = [];
  let missed = 0;
  for (let sample = 0; sample < samples; sample += 1) {
    // Room for the write and a second of previews, so no call of a sample waits for the limit.
    await keys.room(Math.ceil(FRESH_TIMEOUT_MS / FRESH_POLL_MS / 10) + 1);
    const name = `Fresh ${randomBytes(6).toString('hex')}`;
    const written = await keys.call<{ data?: { id?: number } }>('POST', '/api/v1/contacts/upsert', {
      name,
      phone: `+1646${String(2_000_000 + sample).padStart(7, '0')}`,
    });
    if (written.status !== 201) {
      throw new Error(`contact not created: ${written.status} ${JSON.stringify(written.body)}`);
    }
    const answered = performance.now();
    const criteria = [{ field: 'name', operator: 'eq', value: name }];
    let seen: number | undefined;
    while (performance.now() - answered < FRESH_TIMEOUT_MS) {
      const answer = await preview(keys, criteria);
      if (answer.status === 200 && answer.count === 1) {
        seen = performance.now() - answered;
        break;
      }
      await sleep(FRESH_POLL_MS);
    }
    if (seen === undefined) missed += 1;
    else visible.push(seen);
  }
  const shown = spread(visible);
  log(`fresh: a written contact counted by a preview after p50 ${shown.p50} ms, max ${shown.max} ms`);
  return {
    path: 'POST /api/v1/contacts/upsert answered 201 → first POST /api/v1/audience/preview that counts it',
    samples,
    missed,
    visibleMs: shown,
    pollIntervalMs: FRESH_POLL_MS,
  };
}

/** Each filter's preview against its SQL count, for stdout after the table. */
export function renderFilterTable(previews: SegmentPreviews): string {
  const header = [
    'filter',
    'count',
    'preview p50 / p95 / max (ms)',
    'SQL p50 / p95 (ms)',
    'preview/SQL',
    'counts',
  ];
  const cells = previews.filters.map((filter) => [
    filter.label,
    filter.count.toLocaleString('en-US'),
    `${filter.previewMs.p50} / ${filter.previewMs.p95} / ${filter.previewMs.max}`,
    `${filter.sqlMs.p50} / ${filter.sqlMs.p95}`,
    `${filter.ratio.toFixed(3)}×`,
    filter.count === filter.sqlCount ? 'equal' : `DIFFER (SQL ${filter.sqlCount.toLocaleString('en-US')})`,
  ]);
  return (
    `Audience previews over ${previews.contacts.toLocaleString('en-US')} contacts (workspace ${previews.workspaceId}; ` +
    `SQL: count(*) over the segments view's tables):\n` +
    alignedTable(header, cells).join('\n') +
    '\n'
  );
}
