import 'reflect-metadata';

import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { Client } from 'pg';
import { SERVICE_NAMES } from '@cms/config';
import { makeTestCertificates } from '@cms/testing';

import {
  kafkaProducerBaseline,
  kafkaVersion,
  type KafkaProducerBaseline,
} from './baselines/kafka-producer.baseline';
import { noopFastifyBaseline } from './baselines/noop-fastify.baseline';
import { pgCopyBaseline, type PgCopyBaseline } from './baselines/pg-copy.baseline';
import { measureAlertLatency, type AlertLatency } from './figures/alert-latency.figure';
import { measureContactsReplay, type ContactsReplay } from './figures/contacts-replay.figure';
import { measureEventLatency, type EventLatency } from './figures/event-latency.figure';
import { eventRequestSource } from './figures/events-rate.figure';
import { measureIdle, type IdleCpu } from './figures/idle.figure';
import { measureLinkRedirects, type LinkRedirects } from './figures/link-redirects.figure';
import { measureMessagesSent, type MessagesSent } from './figures/messages-sent.figure';
import { measureSegmentImport, type SegmentImportResult } from './figures/segment-import.figure';
import {
  measureSegmentPreviews,
  renderFilterTable,
  type SegmentPreviews,
} from './figures/segment-previews.figure';
import { measureWebhookDeliveries, type WebhookDeliveries } from './figures/webhook-deliveries.figure';
import { findSustainedRate, runClosedLoop, type SustainedSearch } from './load/closed-loop.load';
import { BENCH_DIR, BenchSystem, ROOT, type ServiceName } from './support/bench-system';
import { CpuMeter, formatCpu } from './support/cpu-meter';
import { summarizeProfile, type ProfileSummary } from './support/cpu-profile.summary';
import { HttpsReceiver } from './support/https.receiver';
import { allMet, ratioOf, renderTable, thousands, type Row } from './support/report';

const PHASES = [
  'idle',
  'baselines',
  'rate',
  'latency',
  'webhooks',
  'messages',
  'replay',
  'alerts',
  'links',
  'segments',
  'imports',
] as const;
type Phase = (typeof PHASES)[number];

const USAGE = `usage: npm run bench -- [--quick] [--only ${PHASES.join(',')}] [--rate N] [--profile] [--no-build]

  --quick     a short run (about 6 minutes): shorter steps, smaller backlogs; figures are rougher
  --only      run only these phases (comma-separated); the others are reported as not measured
  --rate N    the sustained rate the latency phase halves, when the rate phase is not run
  --profile   CPU profiles and SQL statement counts of the services during the rate, latency,
              webhook, messages, replay and import phases (.local/bench/profiles/<run>/, summaries in
              the results)
  --import-rows N
              the rows of the import's CSV (100,000 with --quick, 1,000,000 otherwise)
  --no-build  use dist/ as it is
`;

interface Settings {
  quick: boolean;
  phases: Set<Phase>;
  rateOverride: number | undefined;
  profile: boolean;
  importRows: number | undefined;
}

function settings(argv: string[]): Settings {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      rate: { type: 'string' },
      profile: { type: 'boolean', default: false },
      'import-rows': { type: 'string' },
      'no-build': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const phases = new Set<Phase>();
  for (const phase of (values.only ?? PHASES.join(',')).split(',').map((part) => part.trim())) {
    if (!(PHASES as readonly string[]).includes(phase)) throw new Error(`unknown phase ${phase}\n${USAGE}`);
    phases.add(phase as Phase);
  }
  return {
    quick: values.quick,
    phases,
    rateOverride: values.rate === undefined ? undefined : Number(values.rate),
    profile: values.profile,
    importRows: values['import-rows'] === undefined ? undefined : Number(values['import-rows']),
  };
}

/** How big each phase is: a full run takes about ten minutes on the 2-core machine, and segments 15 more. */
function sizes(quick: boolean) {
  return quick
    ? {
        idleSettleSeconds: 10,
        idleSeconds: 20,
        kafkaRecords: 100_000,
        levelSeconds: 4,
        warmupSeconds: 3,
        latencySeconds: 8,
        webhookDeliveries: 2_000,
        messageSeconds: 5,
        replayRecords: 30_000,
        replayPrepareSeconds: 20,
        replayTimeoutSeconds: 300,
        copyRows: 1_000_000,
        alertBursts: 5,
        segmentContacts: 100_000,
        segmentImportRows: 100_000,
        segmentPreviewCalls: 20,
        segmentFreshSamples: 10,
      }
    : {
        idleSettleSeconds: 15,
        idleSeconds: 60,
        kafkaRecords: 300_000,
        levelSeconds: 10,
        warmupSeconds: 5,
        latencySeconds: 20,
        webhookDeliveries: 10_000,
        messageSeconds: 15,
        replayRecords: 150_000,
        replayPrepareSeconds: 60,
        replayTimeoutSeconds: 420,
        copyRows: 1_000_000,
        alertBursts: 10,
        segmentContacts: 1_000_000,
        segmentImportRows: 1_000_000,
        segmentPreviewCalls: 20,
        segmentFreshSamples: 10,
      };
}

const TENANTS = 256;
const WEBHOOK_ENDPOINTS = 32;
/** Messages asked for a second: above the goal of 1,000/s, so that meeting it is the system's doing. */
const MESSAGE_RATE = 1_100;
const CONTACTS_PER_MESSAGING_WORKSPACE = 50;
const MESSAGES_GOAL_PER_SECOND = 1_000;
const MESSAGES_P99_LIMIT_MS = 1_000;
const P99_LIMIT_MS = 100;
/** Clicks of tracked links a second (open loop), the links they spread over, and the goal's p99. */
const LINK_CLICK_RATE = 1_000;
const LINK_COUNT = 20;
const LINK_P99_LIMIT_MS = 20;
/** Issue 19: preview p95 over the ten filters, the worst filter's p95, a write visible, an import's pace. */
const PREVIEW_P95_LIMIT_MS = 100;
const PREVIEW_WORST_LIMIT_MS = 1_000;
const FRESH_LIMIT_MS = 1_000;
const IMPORT_GOAL_ROWS = 1_000_000;
const IMPORT_GOAL_SECONDS = 120;
const GATEWAY_LEVELS = [1, 2, 4, 8, 16, 32, 64, 128, 256];
const NOOP_LEVELS = [8, 16, 32, 64, 128, 256];

function log(line: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
}

function osName(): string {
  const text = existsSync('/etc/os-release') ? readFileSync('/etc/os-release', 'utf8') : '';
  return /^PRETTY_NAME="?([^"\n]*)"?/m.exec(text)?.[1] ?? `Linux ${release()}`;
}

async function postgresVersion(databaseUrl: string): Promise<string> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]!.v;
  } finally {
    await client.end();
  }
}

function gitCommit(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

interface Results {
  startedAt: string;
  finishedAt?: string;
  mode: 'full' | 'quick';
  commit: string | undefined;
  namespace: string;
  machine: Record<string, string | number>;
  baselines: {
    kafkaProducer?: KafkaProducerBaseline;
    noopFastify?: SustainedSearch | { status: 'failed'; reason: string };
    pgCopy?: PgCopyBaseline;
  };
  figures: {
    idle?: IdleCpu | { status: 'failed'; reason: string };
    eventsRate?: SustainedSearch | { status: 'failed'; reason: string };
    eventLatency?: EventLatency | { status: 'failed'; reason: string };
    webhookDeliveries?: WebhookDeliveries | { status: 'failed'; reason: string };
    messagesSent?: MessagesSent | { status: 'failed'; reason: string };
    /** Messages asked for at half the rate delivered above: the latency of a system that keeps up. */
    messageLatency?: MessagesSent | { status: 'failed'; reason: string };
    contactsReplay?: ContactsReplay;
    alertLatency?: AlertLatency | { status: 'failed'; reason: string };
    linkRedirects?: LinkRedirects | { status: 'failed'; reason: string };
    segmentPreviews?: SegmentPreviews | { status: 'failed'; reason: string };
    segmentImport?: SegmentImportResult | { status: 'failed'; reason: string };
  };
  profiles: Record<string, ProfileSummary>;
  /** With --profile: SQL statements each service sent per unit of work while profiled. */
  sql: Record<string, SqlCount>;
  table?: Row[];
}

interface SqlCount {
  statements: number;
  units: number;
  unit: string;
  perUnit: number;
  byStatement: Array<[string, number]>;
}

function sqlCount(file: string, units: number, unit: string): SqlCount {
  const { statements, byStatement } = JSON.parse(readFileSync(file, 'utf8')) as {
    statements: number;
    byStatement: Array<[string, number]>;
  };
  return {
    statements,
    units,
    unit,
    perUnit: units > 0 ? Math.round((statements / units) * 10) / 10 : 0,
    byStatement: byStatement.slice(0, 15),
  };
}

function failed(error: unknown): { status: 'failed'; reason: string } {
  log(`failed: ${errorText(error)}`);
  return { status: 'failed', reason: errorText(error) };
}

function isSearch(value: unknown): value is SustainedSearch {
  return typeof value === 'object' && value !== null && 'steps' in value;
}

function isMeasured<T extends object>(
  value: T | { status: 'failed'; reason: string } | undefined,
): value is T {
  return value !== undefined && !('status' in value && value.status === 'failed');
}

function buildTable(results: Results): Row[] {
  const rows: Row[] = [];
  const { kafkaProducer, noopFastify, pgCopy } = results.baselines;
  const noop = isSearch(noopFastify) ? noopFastify.best : undefined;
  const copyRate = pgCopy?.status === 'measured' ? pgCopy.rowsPerSecond! : undefined;

  rows.push(idleRow(results.figures.idle));

  const rate = results.figures.eventsRate;
  const best = isSearch(rate) ? rate.best : undefined;
  const rateRatio = ratioOf(best?.rps, noop?.rps);
  rows.push({
    id: 'events-rate',
    figure: 'POST /api/v1/events sustained rate (p99 ≤ 100 ms)',
    value: best?.rps ?? null,
    unit: 'req/s',
    shown: best
      ? `${thousands(best.rps)} req/s (p50 ${best.latencyMs.p50} ms, p99 ${best.latencyMs.p99} ms, c=${best.connections})`
      : rate === undefined
        ? 'not measured'
        : isSearch(rate)
          ? `none within p99 ≤ 100 ms; peak ${thousands(rate.peak?.rps ?? 0)} req/s at p99 ${rate.peak?.latencyMs.p99 ?? '?'} ms`
          : `failed: ${rate.reason}`,
    baseline: noop ? { name: 'no-op Fastify', value: noop.rps, unit: 'req/s' } : null,
    ratio: rateRatio,
    goal: '≥ 0.25× no-op and ≥ 1,500 req/s',
    met: best
      ? allMet([rateRatio === null ? undefined : rateRatio >= 0.25, best.rps >= 1500])
      : rate === undefined
        ? 'n/a'
        : 'no',
    cpu: formatCpu((best ?? (isSearch(rate) ? rate.peak : undefined))?.cpu),
  });

  const latency = results.figures.eventLatency;
  const measuredLatency = isMeasured(latency) ? latency : undefined;
  const basis = best ? '' : isSearch(rate) && rate.peak ? ', half the peak: no rate met the bound' : '';
  rows.push({
    id: 'event-latency',
    figure: 'event: request → contact recorded → fact published',
    value: measuredLatency?.endToEndMs.p99 ?? null,
    unit: 'ms (p99)',
    shown: measuredLatency
      ? `p50 ${measuredLatency.endToEndMs.p50} ms, p99 ${measuredLatency.endToEndMs.p99} ms at ${thousands(measuredLatency.rate)} req/s${basis}` +
        (measuredLatency.failed + measuredLatency.missingFacts > 0
          ? ` (${measuredLatency.failed} failed, ${measuredLatency.missingFacts} facts missing)`
          : '')
      : latency === undefined
        ? 'not measured'
        : `failed: ${(latency as { reason: string }).reason}`,
    baseline: null,
    ratio: null,
    goal: 'p50 ≤ 20 ms, p99 ≤ 100 ms at half the sustained rate',
    met: measuredLatency
      ? allMet([
          measuredLatency.endToEndMs.p50 <= 20,
          measuredLatency.endToEndMs.p99 <= 100,
          measuredLatency.failed + measuredLatency.missingFacts === 0,
        ])
      : latency === undefined
        ? 'n/a'
        : 'no',
    cpu: formatCpu(measuredLatency?.cpu),
  });

  const webhooks = results.figures.webhookDeliveries;
  const measuredWebhooks = isMeasured(webhooks) ? webhooks : undefined;
  rows.push({
    id: 'webhook-deliveries',
    figure: 'outbound webhook deliveries',
    value: measuredWebhooks?.perSecond ?? null,
    unit: 'deliveries/s',
    shown: measuredWebhooks
      ? `${thousands(measuredWebhooks.perSecond)}/s (${thousands(measuredWebhooks.received)} of ${thousands(measuredWebhooks.expected)} to ${measuredWebhooks.endpoints} endpoints; steady ${thousands(measuredWebhooks.steadyPerSecond)}/s)`
      : webhooks === undefined
        ? 'not measured'
        : `failed: ${(webhooks as { reason: string }).reason}`,
    baseline: null,
    ratio: null,
    goal: '≥ 1,000/s',
    met: measuredWebhooks
      ? allMet([measuredWebhooks.perSecond >= 1000, measuredWebhooks.received === measuredWebhooks.expected])
      : webhooks === undefined
        ? 'n/a'
        : 'no',
    cpu: formatCpu(measuredWebhooks?.cpu),
  });

  rows.push(messagesRow(results.figures.messagesSent, best?.rps));
  rows.push(messageLatencyRow(results.figures.messageLatency));
  rows.push(linksRow(results.figures.linkRedirects));

  const replay = results.figures.contactsReplay;
  const replayRate = replay?.status === 'measured' ? replay.report!.rate : undefined;
  const replayRatio = ratioOf(replayRate, copyRate);
  rows.push({
    id: 'contacts-replay',
    figure: 'rebuild contacts from the log (ops replay)',
    value: replayRate ?? null,
    unit: 'records/s',
    shown:
      replay === undefined
        ? 'not measured'
        : replay.status === 'measured'
          ? `${thousands(replay.report!.rate)} records/s (${thousands(replay.report!.records)} in ${replay.report!.seconds} s)`
          : `${replay.status}: ${replay.reason ?? ''}`,
    baseline: copyRate ? { name: 'COPY', value: copyRate, unit: 'rows/s' } : null,
    ratio: replayRatio,
    goal: '≥ 20,000 records/s and ≥ 0.3× COPY',
    met:
      replayRate === undefined
        ? replay === undefined || replay.status === 'not available'
          ? 'n/a'
          : 'no'
        : allMet([replayRate >= 20000, replayRatio === null ? undefined : replayRatio >= 0.3]),
    cpu: formatCpu(replay?.cpu),
  });

  rows.push(alertsRow(results.figures.alertLatency));
  const size = sizes(results.mode === 'quick');
  rows.push(...segmentRows(results.figures.segmentPreviews, size.segmentContacts));
  rows.push(segmentImportRow(results.figures.segmentImport, size.segmentImportRows, copyRate));
  rows.push(importNeighbourRow(results.figures.segmentImport));

  rows.push({
    id: 'baseline-noop-fastify',
    figure: 'baseline: no-op Fastify route, same load tool',
    value: noop?.rps ?? null,
    unit: 'req/s',
    shown: noop
      ? `${thousands(noop.rps)} req/s (p50 ${noop.latencyMs.p50} ms, p99 ${noop.latencyMs.p99} ms, c=${noop.connections})`
      : noopFastify === undefined
        ? 'not measured'
        : `failed: ${isSearch(noopFastify) ? 'no level met p99' : noopFastify.reason}`,
    baseline: null,
    ratio: null,
    goal: '',
    met: 'n/a',
    cpu: formatCpu(noop?.cpu),
  });
  rows.push({
    id: 'baseline-kafka-producer',
    figure: 'baseline: Kafka producer perf tool (1 KB, acks=all, idempotent)',
    value: kafkaProducer?.recordsPerSecond ?? null,
    unit: 'records/s',
    shown:
      kafkaProducer?.status === 'measured'
        ? `${thousands(kafkaProducer.recordsPerSecond!)} records/s (${kafkaProducer.mbPerSecond} MB/s, p99 ${kafkaProducer.latencyMs!.p99} ms)`
        : kafkaProducer === undefined
          ? 'not measured'
          : `not available: ${kafkaProducer.reason}`,
    baseline: null,
    ratio: null,
    goal: '',
    met: 'n/a',
    cpu: formatCpu(kafkaProducer?.cpu),
  });
  rows.push({
    id: 'baseline-pg-copy',
    figure: 'baseline: COPY 1M rows into Postgres',
    value: copyRate ?? null,
    unit: 'rows/s',
    shown:
      pgCopy?.status === 'measured'
        ? `${thousands(pgCopy.rowsPerSecond!)} rows/s (${thousands(pgCopy.rows!)} in ${pgCopy.seconds} s)`
        : pgCopy === undefined
          ? 'not measured'
          : `not available: ${pgCopy.reason}`,
    baseline: null,
    ratio: null,
    goal: '',
    met: 'n/a',
    cpu: formatCpu(pgCopy?.cpu),
  });
  return rows;
}

/**
 * Messages end to end: delivered per second and p99 to message.sent, next to the events rate of the
 * same run (what the gateway does for the simplest write, on the same machine at the same time).
 */
function messagesRow(
  messages: MessagesSent | { status: 'failed'; reason: string } | undefined,
  eventsRate: number | undefined,
): Row {
  const measured = isMeasured(messages) ? messages : undefined;
  const ratio = ratioOf(measured?.perSecond, eventsRate);
  const refused = Object.entries(measured?.refused ?? {})
    .map(([status, count]) => `${thousands(count)} × ${status}`)
    .join(', ');
  return {
    id: 'messages-sent',
    figure: 'messages sent end to end through sandbox channels',
    value: measured?.perSecond ?? null,
    unit: 'messages/s',
    shown: measured
      ? `${thousands(measured.perSecond)} messages/s delivered (asked ${thousands(measured.rate)}/s for ${measured.seconds} s); ` +
        `request → message.sent webhook p50 ${measured.sentLatencyMs.p50} ms, p99 ${measured.sentLatencyMs.p99} ms ` +
        `(→ 202 p99 ${measured.answerMs.p99} ms); ` +
        `${thousands(measured.deliveredWebhooks)} delivered and ${thousands(measured.sentWebhooks)} sent of ${thousands(measured.accepted)} accepted` +
        (refused ? `; refused: ${refused}` : '') +
        (measured.outOfOrder > 0 ? `; ${measured.outOfOrder} delivered before sent` : '')
      : messages === undefined
        ? 'not measured'
        : `failed: ${(messages as { reason: string }).reason}`,
    baseline: eventsRate ? { name: 'events rate', value: eventsRate, unit: 'req/s' } : null,
    ratio,
    goal: `≥ ${thousands(MESSAGES_GOAL_PER_SECOND)} messages/s, p99 ≤ ${MESSAGES_P99_LIMIT_MS / 1000} s to message.sent`,
    met: measured
      ? allMet([
          measured.perSecond >= MESSAGES_GOAL_PER_SECOND,
          measured.sentLatencyMs.p99 <= MESSAGES_P99_LIMIT_MS,
          measured.accepted === measured.requests,
          measured.deliveredWebhooks === measured.accepted,
          measured.outOfOrder === 0,
        ])
      : messages === undefined
        ? 'n/a'
        : 'no',
    cpu: formatCpu(measured?.cpu),
  };
}

/**
 * One message's time to message.sent when asked for at half the delivered rate: the part of the goal
 * that a system which keeps up can meet, apart from the queue an overload builds.
 */
function messageLatencyRow(latency: MessagesSent | { status: 'failed'; reason: string } | undefined): Row {
  const measured = isMeasured(latency) ? latency : undefined;
  return {
    id: 'message-latency',
    figure: 'one message: request → message.sent webhook, at half the delivered rate',
    value: measured?.sentLatencyMs.p99 ?? null,
    unit: 'ms',
    shown: measured
      ? `p50 ${measured.sentLatencyMs.p50} ms, p99 ${measured.sentLatencyMs.p99} ms at ${thousands(measured.rate)}/s ` +
        `(→ message.delivered p99 ${measured.deliveredLatencyMs.p99} ms; → 202 p99 ${measured.answerMs.p99} ms); ` +
        `${thousands(measured.deliveredWebhooks)} delivered of ${thousands(measured.accepted)} accepted`
      : latency === undefined
        ? 'not measured'
        : `failed: ${(latency as { reason: string }).reason}`,
    baseline: null,
    ratio: null,
    goal: `p99 ≤ ${MESSAGES_P99_LIMIT_MS / 1000} s to message.sent`,
    met: measured
      ? allMet([
          measured.sentLatencyMs.p99 <= MESSAGES_P99_LIMIT_MS,
          measured.accepted === measured.requests,
          measured.deliveredWebhooks === measured.accepted,
        ])
      : latency === undefined
        ? 'n/a'
        : 'no',
    cpu: formatCpu(measured?.cpu),
  };
}

/**
 * Tracked-link redirects: p50/p99 of `GET /l/<token>` at 1,000 clicks/s, beside the same load on the
 * same gateway's `GET /health` (the cost of any answer on this machine at that moment).
 */
/**
 * What the system cost at rest before it woke on work (issue 27: every consumer fetching ten times a
 * second and more, the job workers polling Postgres every 50–500 ms), measured the same way: % of one
 * core per process.
 */
const IDLE_BEFORE_PCT_OF_CORE = {
  kafka: 24,
  messaging: 12.8,
  gateway: 11.4,
  'webhook-dispatch': 11,
  segments: 10.8,
  postgres: 7,
  contacts: 4.6,
};
const IDLE_GOAL_PCT_OF_CORE = 5;

function idleRow(idle: IdleCpu | { status: 'failed'; reason: string } | undefined): Row {
  const measured = isMeasured(idle) ? idle : undefined;
  const before =
    Math.round(Object.values(IDLE_BEFORE_PCT_OF_CORE).reduce((sum, pct) => sum + pct, 0) * 10) / 10;
  return {
    id: 'idle',
    figure: 'the whole system at rest: CPU of every service, Kafka, Postgres and Redis',
    value: measured?.totalPctOfCore ?? null,
    unit: '% of one core',
    shown: measured
      ? `${measured.totalPctOfCore}% of one core over ${measured.seconds} s (` +
        Object.entries(measured.byGroupPctOfCore)
          .map(([group, pct]) => `${group} ${pct}%`)
          .join(', ') +
        ')'
      : idle === undefined
        ? 'not measured'
        : `failed: ${(idle as { reason: string }).reason}`,
    baseline: { name: 'before waking on work (polling)', value: before, unit: '% of one core' },
    ratio: measured ? ratioOf(measured.totalPctOfCore, before) : null,
    goal: `≤ ${IDLE_GOAL_PCT_OF_CORE}% of one core`,
    met: measured
      ? measured.totalPctOfCore <= IDLE_GOAL_PCT_OF_CORE
        ? 'yes'
        : 'no'
      : idle === undefined
        ? 'n/a'
        : 'no',
    cpu: '',
  };
}

function linksRow(links: LinkRedirects | { status: 'failed'; reason: string } | undefined): Row {
  const measured = isMeasured(links) ? links : undefined;
  const refused = Object.entries(measured?.refused ?? {})
    .map(([status, count]) => `${thousands(count)} × ${status}`)
    .join(', ');
  return {
    id: 'link-redirects',
    figure: 'GET /l/<token> redirect latency (open loop)',
    value: measured?.redirectMs.p99 ?? null,
    unit: 'ms (p99)',
    shown: measured
      ? `p50 ${measured.redirectMs.p50} ms, p99 ${measured.redirectMs.p99} ms, max ${measured.redirectMs.max} ms ` +
        `at ${thousands(measured.rate)} clicks/s for ${measured.seconds} s over ${measured.links} links; ` +
        `${thousands(measured.redirected)} of ${thousands(measured.requests)} redirected, ` +
        `${thousands(measured.recorded)} counted on the messages` +
        (refused ? `; refused: ${refused}` : '') +
        `; GET /health at the same rate: p50 ${measured.baselineMs.p50} ms, p99 ${measured.baselineMs.p99} ms`
      : links === undefined
        ? 'not measured'
        : `failed: ${(links as { reason: string }).reason}`,
    baseline: measured ? { name: 'GET /health p99', value: measured.baselineMs.p99, unit: 'ms' } : null,
    ratio: measured ? ratioOf(measured.redirectMs.p99, measured.baselineMs.p99) : null,
    goal: `p99 ≤ ${LINK_P99_LIMIT_MS} ms at ${thousands(LINK_CLICK_RATE)} clicks/s`,
    met: measured
      ? allMet([
          measured.redirectMs.p99 <= LINK_P99_LIMIT_MS,
          measured.redirected === measured.requests,
          measured.recorded === measured.redirected,
        ])
      : links === undefined
        ? 'n/a'
        : 'no',
    cpu: formatCpu(measured?.cpu),
  };
}

/** Delivery monitoring: a failure burst to the alert.triggered webhook at the receiver. */
function alertsRow(alerts: AlertLatency | { status: 'failed'; reason: string } | undefined): Row {
  const measured = isMeasured(alerts) ? alerts : undefined;
  return {
    id: 'alert-latency',
    figure: 'failure burst → alert.triggered received',
    value: measured?.fromBurstMs.p50 ?? null,
    unit: 'ms (p50)',
    shown: measured
      ? `p50 ${measured.fromBurstMs.p50} ms, max ${measured.fromBurstMs.max} ms from the burst's first request; ` +
        `p50 ${measured.fromLastAnswerMs.p50} ms from its last 202 (${measured.alerts} of ${measured.bursts} bursts of ${measured.burstSize})`
      : alerts === undefined
        ? 'not measured'
        : `failed: ${(alerts as { reason: string }).reason}`,
    baseline: null,
    ratio: null,
    goal: '',
    met: 'n/a',
    cpu: formatCpu(measured?.cpu),
  };
}

/**
 * Segments at scale (issue 19): the previews of ten typical filters over the seeded workspace against
 * the same counts written by hand in SQL, how fast the view took the seeded facts, and how soon a
 * contact written through the API is counted by a preview.
 */
function segmentRows(
  previews: SegmentPreviews | { status: 'failed'; reason: string } | undefined,
  contacts: number,
): Row[] {
  const measured = isMeasured(previews) ? previews : undefined;
  const failure =
    previews === undefined ? 'not measured' : `failed: ${(previews as { reason: string }).reason}`;
  const notMeasured = previews === undefined ? 'not measured' : 'not measured: the previews failed (above)';
  const fresh = measured && !('status' in measured.freshness) ? measured.freshness : undefined;
  const restart = measured && !('status' in measured.restart) ? measured.restart : undefined;
  const seeding = measured?.seeding;
  return [
    {
      id: 'segment-previews',
      figure: `audience preview, 10 typical filters over ${thousands(contacts)} contacts`,
      value: measured?.previewMs.p95 ?? null,
      unit: 'ms (p95)',
      shown: measured
        ? `p95 ${measured.previewMs.p95} ms, p50 ${measured.previewMs.p50} ms (${measured.timedCalls} calls a filter); ` +
          `worst "${measured.worst.label}" p95 ${measured.worst.p95} ms; index built by the first preview in ${thousands(measured.indexBuildMs)} ms; ` +
          (measured.mismatches.length === 0
            ? 'every count equals SQL'
            : `COUNTS DIFFER FROM SQL: ${measured.mismatches.join('; ')}`)
        : failure,
      baseline: measured ? { name: 'SQL count(*) p95', value: measured.sqlMs.p95, unit: 'ms' } : null,
      ratio: measured ? ratioOf(measured.previewMs.p95, measured.sqlMs.p95) : null,
      goal: `p95 ≤ ${PREVIEW_P95_LIMIT_MS} ms, worst filter p95 ≤ ${PREVIEW_WORST_LIMIT_MS / 1000} s, counts = SQL`,
      met: measured
        ? allMet([
            measured.previewMs.p95 <= PREVIEW_P95_LIMIT_MS,
            measured.worst.p95 <= PREVIEW_WORST_LIMIT_MS,
            measured.mismatches.length === 0,
          ])
        : previews === undefined
          ? 'n/a'
          : 'no',
      cpu: formatCpu(measured?.cpu),
    },
    {
      id: 'segment-freshness',
      figure: 'contact write answered → counted by a preview',
      value: fresh?.visibleMs.max ?? null,
      unit: 'ms (max)',
      shown: fresh
        ? `p50 ${fresh.visibleMs.p50} ms, max ${fresh.visibleMs.max} ms over ${fresh.samples} writes` +
          (fresh.missed > 0 ? ` (${fresh.missed} never counted)` : '') +
          ' (POST /api/v1/contacts/upsert → preview)'
        : measured
          ? `failed: ${(measured.freshness as { reason: string }).reason}`
          : notMeasured,
      baseline: null,
      ratio: null,
      goal: `≤ ${FRESH_LIMIT_MS / 1000} s`,
      met: fresh
        ? allMet([fresh.visibleMs.max <= FRESH_LIMIT_MS, fresh.missed === 0])
        : previews === undefined
          ? 'n/a'
          : 'no',
      cpu: '',
    },
    {
      id: 'segment-restart',
      figure: 'first preview after segments restarts (workspace with an audience)',
      value: restart?.firstPreview.ms ?? null,
      unit: 'ms',
      shown: restart
        ? `answered ${restart.firstPreview.status} in ${restart.firstPreview.ms} ms; the replica ready ${thousands(restart.readyMs)} ms after its start (indexes warmed first)`
        : measured
          ? `failed: ${(measured.restart as { reason: string }).reason}`
          : notMeasured,
      baseline: measured
        ? { name: 'first preview of a cold index', value: measured.indexBuildMs, unit: 'ms' }
        : null,
      ratio: measured && restart ? ratioOf(restart.firstPreview.ms, measured.indexBuildMs) : null,
      goal: `200 within ${PREVIEW_WORST_LIMIT_MS / 1000} s`,
      met: restart
        ? allMet([restart.firstPreview.status === 200, restart.firstPreview.ms <= PREVIEW_WORST_LIMIT_MS])
        : previews === undefined
          ? 'n/a'
          : 'no',
      cpu: '',
    },
    {
      id: 'segment-seeding',
      figure: 'segments view: seeded contact facts applied',
      value: seeding?.appliedPerSecond ?? null,
      unit: 'facts/s',
      shown: seeding
        ? `${thousands(seeding.appliedPerSecond)} facts/s (${thousands(seeding.contacts)} contacts, ${thousands(seeding.events)} events, ` +
          `${seeding.tags} tags in ${seeding.viewSeconds} s; published at ${thousands(seeding.publishedPerSecond)} facts/s)`
        : notMeasured,
      baseline: null,
      ratio: null,
      goal: '',
      met: 'n/a',
      cpu: '',
    },
  ];
}

/** An import of a CSV through upload, process and the job, against the goal's pace (1,000,000 rows in 120 s). */
function segmentImportRow(
  result: SegmentImportResult | { status: 'failed'; reason: string } | undefined,
  rows: number,
  copyRate: number | undefined,
): Row {
  const measured = result?.status === 'measured' ? result : undefined;
  const goalRate = Math.ceil(IMPORT_GOAL_ROWS / IMPORT_GOAL_SECONDS);
  const counted =
    measured &&
    measured.job.contacts_matched === measured.expected.matched &&
    measured.job.contacts_created === measured.expected.created &&
    measured.job.rows_skipped === measured.expected.skipped;
  return {
    id: 'segment-import',
    figure: `audience import of a ${thousands(measured?.rows ?? rows)}-row CSV: upload → job completed`,
    value: measured?.rowsPerSecond ?? null,
    unit: 'rows/s',
    shown: measured
      ? `${measured.totalSeconds} s, ${thousands(measured.rowsPerSecond)} rows/s (upload ${measured.uploadSeconds} s, ` +
        `process ${measured.processSeconds} s); matched ${thousands(measured.job.contacts_matched)}, ` +
        `created ${thousands(measured.job.contacts_created)}, skipped ${thousands(measured.job.rows_skipped)}` +
        (counted
          ? ''
          : ` (THE FILE CALLS FOR ${thousands(measured.expected.matched)} / ${thousands(measured.expected.created)} / ${thousands(measured.expected.skipped)})`)
      : result === undefined
        ? 'not measured'
        : `${result.status}: ${(result as { reason: string }).reason}`,
    baseline: copyRate ? { name: 'COPY', value: copyRate, unit: 'rows/s' } : null,
    ratio: measured ? ratioOf(measured.rowsPerSecond, copyRate) : null,
    goal: `≥ ${thousands(goalRate)} rows/s (${thousands(IMPORT_GOAL_ROWS)} in ≤ ${IMPORT_GOAL_SECONDS} s)`,
    met: measured
      ? allMet([measured.rowsPerSecond >= goalRate, counted])
      : result === undefined || result.status === 'not measured'
        ? 'n/a'
        : 'no',
    cpu: formatCpu(measured?.cpu),
  };
}

/** Another workspace's writes while the import runs, queued on the same partition of the requests topic. */
function importNeighbourRow(
  result: SegmentImportResult | { status: 'failed'; reason: string } | undefined,
): Row {
  const neighbour = result?.status === 'measured' ? result.neighbour : null;
  return {
    id: 'segment-import-neighbour',
    figure: "during the import: another workspace's contact upsert (the import's requests partition)",
    value: neighbour?.ms.p95 ?? null,
    unit: 'ms',
    shown: neighbour
      ? `p50 ${neighbour.ms.p50} ms, p95 ${neighbour.ms.p95} ms, max ${neighbour.ms.max} ms over ` +
        `${thousands(neighbour.calls)} upserts (${neighbour.failed} failed), workspace ${neighbour.workspaceId}`
      : 'not measured',
    baseline: null,
    ratio: null,
    goal: '—',
    met: neighbour ? (neighbour.failed === 0 ? 'yes' : 'no') : 'n/a',
    cpu: '',
  };
}

/** kafkajs on Node 24 warns about a timer it clamps itself (kafkajs#1751); other warnings still show. */
function quietKnownWarnings(): void {
  process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    if (warning.name !== 'TimeoutNegativeWarning') log(`warning: ${warning.name}: ${warning.message}`);
  });
}

async function main(): Promise<number> {
  quietKnownWarnings();
  const options = settings(process.argv.slice(2));
  const size = sizes(options.quick);
  const namespace = `bench-${Date.now().toString(36)}`;
  const profileDir = join(BENCH_DIR, 'profiles', namespace);
  const started = new Date();
  log(`run ${namespace} (${options.quick ? 'quick' : 'full'}): ${[...options.phases].join(', ')}`);

  const tracked = new Map<number, string>();
  const track = (pid: number | undefined, name: string): void => {
    if (pid !== undefined) tracked.set(pid, name);
  };
  track(process.pid, 'load (bench)');
  let system: BenchSystem | undefined;
  const meter = new CpuMeter(() => new Map([...tracked, ...(system?.pids() ?? [])]));
  const certificates = makeTestCertificates('bench');
  const receiver = new HttpsReceiver(certificates);
  await receiver.listen();

  const preload = join(__dirname, 'support', 'cpu-profiler.preload.ts');
  const sqlCounter = join(__dirname, 'support', 'sql-counter.preload.ts');
  const nodeArgs = options.profile ? ['-r', '@swc-node/register', '-r', preload, '-r', sqlCounter] : [];
  const results: Results = {
    startedAt: started.toISOString(),
    mode: options.quick ? 'quick' : 'full',
    commit: gitCommit(),
    namespace,
    machine: {},
    baselines: {},
    figures: {},
    profiles: {},
    sql: {},
  };

  // One clean-up, which every caller waits for: a phase that fails because Ctrl-C stopped its services
  // must not let the run exit before their schemas and topics are gone.
  let stopping: Promise<void> | undefined;
  const cleanUp = (): Promise<void> =>
    (stopping ??= (async () => {
      log('cleaning up: services, bench schemas and topics');
      await system?.stop().catch((error: unknown) => log(`clean-up: ${errorText(error)}`));
      await receiver.close().catch(() => undefined);
      certificates.remove();
      meter.stop();
    })());
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      log(`${sig}: stopping`);
      void cleanUp().then(() => process.exit(130));
    });
  }

  /**
   * With --profile: starts the CPU profiler and the SQL statement counter of each service (SIGWINCH,
   * see cpu-profiler.preload.ts and sql-counter.preload.ts).
   */
  const startProfiles = (services: ServiceName[]): Map<ServiceName, number | undefined> => {
    const pids = new Map(services.map((name) => [name, system?.pid(name)]));
    if (options.profile) for (const name of services) system?.signal(name, 'SIGWINCH');
    return pids;
  };
  /**
   * Stops them; each service writes its profile (renamed `<phase>.<service>` and summarized) and its
   * statement counts, reported per unit of work (an event answered, a delivery).
   */
  const finishProfiles = async (
    phase: string,
    pids: Map<ServiceName, number | undefined>,
    units: () => { count: number; unit: string },
  ): Promise<void> => {
    if (!options.profile) return;
    for (const name of pids.keys()) system?.signal(name, 'SIGWINCH');
    const { count, unit } = units();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    for (const [name, pid] of pids) {
      const mine = readdirSync(profileDir).filter((entry) => entry.startsWith(`${name}-${pid}-`));
      const profile = mine
        .filter((entry) => entry.endsWith('.cpuprofile'))
        .sort()
        .pop();
      if (profile) {
        const target = join(profileDir, `${phase}.${name}.cpuprofile`);
        renameSync(join(profileDir, profile), target);
        results.profiles[`${phase}.${name}`] = summarizeProfile(target);
      } else log(`no CPU profile from ${name}`);
      const counted = mine
        .filter((entry) => /-sql-\d+\.json$/.test(entry))
        .sort()
        .pop();
      if (counted) results.sql[`${phase}.${name}`] = sqlCount(join(profileDir, counted), count, unit);
    }
  };

  try {
    mkdirSync(profileDir, { recursive: true });
    system = await BenchSystem.prepare(namespace, {
      env: {
        NODE_EXTRA_CA_CERTS: certificates.caFile,
        WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
        BENCH_PROFILE_DIR: profileDir,
        // The load generator is one client address asking for 1,000 redirects a second of one workspace.
        LINK_CLICKS_PER_CLIENT: String(LINK_CLICK_RATE * 5),
        LINK_CLICK_RECORDS_PER_WORKSPACE: String(LINK_CLICK_RATE * 5),
      },
      nodeArgs,
    });
    results.machine = {
      date: started.toISOString(),
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      os: osName(),
      node: process.version,
      kafka: kafkaVersion() ?? 'unknown',
      postgres: await postgresVersion(system.stack.databaseUrl),
      note: 'services, Kafka, Postgres, Redis and the load generator share the same cores',
    };
    log('starting gateway, contacts and webhook-dispatch');
    await system.start('gateway', 'contacts', 'webhook-dispatch');
    log(`making ${TENANTS} workspaces with a key each`);
    const tenants = await system.tenants(TENANTS, 'business');
    const source = eventRequestSource(tenants);

    if (options.phases.has('idle')) {
      // First, on a system that has done nothing else yet; the services it starts for it stop after.
      const started = SERVICE_NAMES.filter((name) => !system!.isRunning(name));
      log(`figure: the whole system at rest for ${size.idleSeconds} s`);
      results.figures.idle = await measureIdle(
        system,
        tenants[0]!,
        meter,
        { seconds: size.idleSeconds, settleSeconds: size.idleSettleSeconds },
        log,
      ).catch(failed);
      for (const name of started) await system.stopService(name);
    }

    if (options.phases.has('baselines')) {
      log(`baseline: Kafka producer perf tool, ${thousands(size.kafkaRecords)} records of 1 KB`);
      results.baselines.kafkaProducer = await kafkaProducerBaseline(
        system.kafka,
        system.stack.kafkaBrokers,
        `${namespace}.bench.producer-perf`,
        size.kafkaRecords,
        meter,
        track,
      ).catch((error: unknown) => ({ status: 'not available' as const, reason: errorText(error) }));
      log('baseline: no-op Fastify route');
      results.baselines.noopFastify = await noopFastifyBaseline(source, {
        levels: NOOP_LEVELS,
        seconds: size.levelSeconds,
        warmupSeconds: size.warmupSeconds,
        p99LimitMs: P99_LIMIT_MS,
        meter,
        log,
        track,
      }).catch(failed);
      log(`baseline: COPY of ${thousands(size.copyRows)} rows`);
      results.baselines.pgCopy = await pgCopyBaseline(
        system.stack.databaseUrl,
        system.schema('bench'),
        system.schema('contacts'),
        size.copyRows,
        meter,
        track,
      ).catch((error: unknown) => ({ status: 'not available' as const, reason: errorText(error) }));
    }

    let sustained = options.rateOverride;
    if (options.phases.has('rate')) {
      log('figure: POST /api/v1/events sustained rate');
      const search = await findSustainedRate(system.url, source, {
        levels: GATEWAY_LEVELS,
        seconds: size.levelSeconds,
        warmupSeconds: size.warmupSeconds,
        p99LimitMs: P99_LIMIT_MS,
        meter,
        log,
      }).catch(failed);
      results.figures.eventsRate = search;
      if (isSearch(search)) {
        // Without a rate within the bound, the peak stands in for it (and the table says so).
        sustained = (search.best ?? search.peak)?.rps;
        const connections = (search.best ?? search.peak)?.connections ?? GATEWAY_LEVELS[0]!;
        const profileSeconds = Math.max(10, size.levelSeconds);
        if (options.profile) {
          log(`profiling the services at c=${connections} for ${profileSeconds} s`);
          const pids = startProfiles(['gateway', 'contacts', 'webhook-dispatch']);
          const step = await runClosedLoop(system.url, source, connections, profileSeconds, P99_LIMIT_MS);
          await finishProfiles('events-rate', pids, () => ({ count: step.ok, unit: 'event' }));
        }
      }
    }

    if (options.phases.has('latency')) {
      const rate = Math.max(10, Math.round((sustained ?? 200) / 2));
      log(`figure: one event's latency at ${rate} req/s (half of ${sustained ?? 'an assumed 400'} req/s)`);
      // Profiled as measured: smooth arrivals cost the services differently from the rate search's bursts.
      const pids = options.profile ? startProfiles(['gateway', 'contacts', 'webhook-dispatch']) : undefined;
      results.figures.eventLatency = await measureEventLatency(
        system.kafka,
        system.topics.contacts,
        `${namespace}.bench.latency`,
        system.url,
        source,
        rate,
        size.latencySeconds,
        meter,
        log,
      ).catch(failed);
      if (pids) {
        const latency = results.figures.eventLatency;
        await finishProfiles('event-latency', pids, () => ({
          count: 'accepted' in latency ? latency.accepted : 0,
          unit: 'event',
        }));
      }
    }

    if (options.phases.has('webhooks')) {
      log(
        `figure: webhook deliveries, ${thousands(size.webhookDeliveries)} to ${WEBHOOK_ENDPOINTS} endpoints`,
      );
      let pids = new Map<ServiceName, number | undefined>();
      let receivedBefore = 0;
      results.figures.webhookDeliveries = await measureWebhookDeliveries(
        system,
        tenants.slice(0, WEBHOOK_ENDPOINTS),
        receiver,
        size.webhookDeliveries,
        meter,
        log,
        {
          started: () => {
            receivedBefore = receiver.count;
            pids = startProfiles(['webhook-dispatch']);
          },
          finished: () =>
            finishProfiles('webhooks', pids, () => ({
              count: receiver.count - receivedBefore,
              unit: 'delivery',
            })),
        },
      ).catch(failed);
    }

    if (options.phases.has('messages')) {
      log(`figure: messages end to end at ${thousands(MESSAGE_RATE)}/s for ${size.messageSeconds} s`);
      let pids = new Map<ServiceName, number | undefined>();
      let accepted = 0;
      results.figures.messagesSent = await measureMessagesSent(
        system,
        receiver,
        {
          rate: MESSAGE_RATE,
          seconds: size.messageSeconds,
          contactsPerWorkspace: CONTACTS_PER_MESSAGING_WORKSPACE,
        },
        meter,
        log,
        {
          started: () => {
            pids = startProfiles(['gateway', 'contacts', 'messaging', 'webhook-dispatch']);
          },
          finished: (count) => {
            accepted = count;
            return finishProfiles('messages', pids, () => ({ count: accepted, unit: 'message' }));
          },
        },
      ).catch(failed);
      const sent = results.figures.messagesSent;
      if (isMeasured(sent) && sent.perSecond > 0) {
        const rate = Math.max(10, Math.round(sent.perSecond / 2));
        log(`figure: one message's latency at ${thousands(rate)}/s (half the delivered rate)`);
        results.figures.messageLatency = await measureMessagesSent(
          system,
          receiver,
          { rate, seconds: size.messageSeconds, contactsPerWorkspace: CONTACTS_PER_MESSAGING_WORKSPACE },
          meter,
          log,
          { started: () => undefined, finished: () => Promise.resolve() },
        ).catch(failed);
      }
    }

    if (options.phases.has('links')) {
      log(`figure: tracked-link redirects at ${thousands(LINK_CLICK_RATE)} clicks/s`);
      results.figures.linkRedirects = await measureLinkRedirects(
        system,
        { rate: LINK_CLICK_RATE, seconds: size.latencySeconds, links: LINK_COUNT },
        meter,
        log,
      ).catch(failed);
    }

    if (options.phases.has('replay')) {
      log(`figure: ops replay contacts over about ${thousands(size.replayRecords)} records`);
      results.figures.contactsReplay = await measureContactsReplay(
        system,
        tenants,
        size.replayRecords,
        size.replayPrepareSeconds,
        size.replayTimeoutSeconds,
        meter,
        log,
        track,
        options.profile
          ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '-r', '@swc-node/register', '-r', sqlCounter]
          : [],
      ).catch((error: unknown) => ({ status: 'failed' as const, reason: errorText(error), logRecords: 0 }));
      // ops and the rebuild it starts (`main.js rebuild`, which inherits NODE_OPTIONS) each write one;
      // the rebuild's is the larger by far.
      const written = readdirSync(profileDir)
        .filter((name) => /^CPU\..*\.cpuprofile$/.test(name))
        .map((name) => ({ name, size: statSync(join(profileDir, name)).size }))
        .sort((a, b) => b.size - a.size);
      written.forEach(({ name }, index) => {
        const target = join(profileDir, `replay.${index === 0 ? 'rebuild' : 'ops'}.cpuprofile`);
        renameSync(join(profileDir, name), target);
        results.profiles[`replay.${index === 0 ? 'rebuild' : 'ops'}`] = summarizeProfile(target);
      });
      // The rebuild counted its statements over its whole life; ops' own few are the smaller file.
      const replay = results.figures.contactsReplay;
      const counts = readdirSync(profileDir)
        .filter((name) => name.endsWith('-sql-exit.json'))
        .map((name) => join(profileDir, name))
        .sort((a, b) => statSync(b).size - statSync(a).size);
      if (counts[0] && replay.report) {
        results.sql['replay.rebuild'] = sqlCount(counts[0], replay.report.records, 'record');
      }
    }
    if (options.phases.has('alerts')) {
      log(`figure: failure burst → alert.triggered, ${size.alertBursts} bursts`);
      results.figures.alertLatency = await measureAlertLatency(
        system,
        receiver,
        size.alertBursts,
        meter,
        log,
      ).catch(failed);
    }
    // Last: it stops messaging and webhook-dispatch, and leaves millions of facts in the topics.
    if (options.phases.has('segments')) {
      log(`figure: audience previews over ${thousands(size.segmentContacts)} contacts`);
      results.figures.segmentPreviews = await measureSegmentPreviews(
        system,
        {
          contacts: size.segmentContacts,
          timedCalls: size.segmentPreviewCalls,
          freshSamples: size.segmentFreshSamples,
        },
        meter,
        log,
      ).catch(failed);
    }
    // Part of the segments phase; `--only imports` runs it alone (over the contacts the workspace has).
    if (options.phases.has('segments') || options.phases.has('imports')) {
      log(`figure: audience import of a ${thousands(options.importRows ?? size.segmentImportRows)}-row CSV`);
      const services: ServiceName[] = ['gateway', 'contacts', 'segments'];
      let pids: Map<ServiceName, number | undefined> | undefined;
      results.figures.segmentImport = await measureSegmentImport(
        system,
        {
          rows: options.importRows ?? size.segmentImportRows,
          profile: {
            start: () => {
              pids = startProfiles(services);
            },
            finish: (rows) => finishProfiles('import', pids!, () => ({ count: rows, unit: 'row' })),
          },
        },
        meter,
        log,
      ).catch(failed);
    }
  } finally {
    await cleanUp();
  }

  results.finishedAt = new Date().toISOString();
  results.table = buildTable(results);
  mkdirSync(join(BENCH_DIR, 'runs'), { recursive: true });
  const json = `${JSON.stringify(results, null, 2)}\n`;
  writeFileSync(join(BENCH_DIR, 'results.json'), json);
  writeFileSync(join(BENCH_DIR, 'runs', `${started.toISOString().replace(/[:.]/g, '-')}.json`), json);
  process.stdout.write(`\n${renderTable(results.table)}`);
  const previews = results.figures.segmentPreviews;
  if (isMeasured(previews)) process.stdout.write(`\n${renderFilterTable(previews)}`);
  const latency = results.figures.eventLatency;
  if (isMeasured(latency)) {
    const { toGateway, gatewayToRelay, relayToReader } = latency.legsMs;
    process.stdout.write(
      `\nOne event's trip in legs, p50 / p99 ms: request due → gateway made the record ${toGateway.p50} / ${toGateway.p99}; ` +
        `→ contacts applied it and its relay sent the fact ${gatewayToRelay.p50} / ${gatewayToRelay.p99}; ` +
        `→ read from Kafka ${relayToReader.p50} / ${relayToReader.p99}\n`,
    );
  }
  for (const [name, summary] of Object.entries(results.profiles)) {
    process.stdout.write(
      `\nCPU profile ${name} (${summary.busyPctOfCore}% of a core over ${summary.seconds} s): ` +
        summary.byArea
          .slice(0, 8)
          .map((entry) => `${entry.area} ${entry.pct}%`)
          .join(', ') +
        `\n  of which socket writes (one system call each) by caller: ` +
        summary.socketWritesByCaller
          .slice(0, 4)
          .map((entry) => `${entry.area} ${entry.pct}%`)
          .join(', ') +
        '\n',
    );
  }
  for (const [name, count] of Object.entries(results.sql)) {
    process.stdout.write(
      `\nSQL statements ${name}: ${count.perUnit} per ${count.unit} (${thousands(count.statements)} for ${thousands(count.units)})\n`,
    );
  }
  process.stdout.write(
    `\nResults: .local/bench/results.json (this run also in .local/bench/runs/); machine: ${results.machine.cpus} cores, ` +
      `${results.machine.memoryGiB} GiB, Node ${results.machine.node}, Kafka ${results.machine.kafka}, Postgres ${results.machine.postgres}\n`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench: ${errorText(error)}\n`);
    process.exit(1);
  },
);
