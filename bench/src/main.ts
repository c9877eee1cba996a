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
import {
  AUTOMATIONS_SERVICES,
  measurePlainEvents,
  measureTimersDueAtOnce,
  measureWorkflowEventsRate,
  measureWorkflowMessageLatency,
  type EventsRateBasis,
  type PlainEvents,
  type TimersDueAtOnce,
  type WorkflowEventsRate,
  type WorkflowMessageLatency,
  waitCaughtUp,
} from './figures/automations.figure';
import { measureBotReplies, type BotReplies } from './figures/bot-replies.figure';
import { BROADCASTS_SERVICES, measureBroadcast, type BroadcastFigure } from './figures/broadcasts.figure';
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
  'automations',
  'broadcasts',
  'segments',
  'imports',
] as const;
type Phase = (typeof PHASES)[number];

const USAGE = `usage: npm run bench -- [--quick] [--only ${PHASES.join(',')}] [--rate N] [--profile] [--no-build]

  --quick     a short run (about 6 minutes): shorter steps, smaller backlogs; figures are rougher
  --only      run only these phases (comma-separated); the others are reported as not measured
  --rate N    the sustained rate the latency phase halves, when the rate phase is not run (the
              automations phase measures the events rate itself when the rate phase is not run)
  --profile   CPU profiles and SQL statement counts of the services during the rate, latency,
              webhook, messages, replay and import phases (.local/bench/profiles/<run>/, summaries in
              the results)
  --import-rows N
              the rows of the import's CSV (100,000 with --quick, 1,000,000 otherwise)
  --bot-rate N
              the new conversations a second of the automations phase's bot figure and its
              baseline (100, the rate its goal is set at)
  --no-build  use dist/ as it is
`;

interface Settings {
  quick: boolean;
  phases: Set<Phase>;
  rateOverride: number | undefined;
  profile: boolean;
  importRows: number | undefined;
  botRate: number;
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
      'bot-rate': { type: 'string' },
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
    botRate: values['bot-rate'] === undefined ? BOT_RATE : Number(values['bot-rate']),
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
        workflowRateSeconds: 10,
        botSeconds: 10,
        timers: 10_000,
        timerSamples: 20,
        broadcastMembers: 20_000,
        broadcastCapSeconds: 180,
        broadcastSamples: 20,
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
        workflowRateSeconds: 20,
        botSeconds: 30,
        timers: 100_000,
        broadcastMembers: 1_000_000,
        broadcastCapSeconds: 300,
        broadcastSamples: 20,
        timerSamples: 40,
      };
}

const TENANTS = 256;
const WEBHOOK_ENDPOINTS = 32;
/** Messages asked for a second: above the goal of 1,000/s, so that meeting it is the system's doing. */
const MESSAGE_RATE = 1_100;
const CONTACTS_PER_MESSAGING_WORKSPACE = 50;
/** The Node the project runs on (package.json `engines`). */
const NODE_MAJOR = 24;
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
    /** Issue 28: an event that starts a one-step workflow → its message.sent, at half the events rate. */
    workflowMessageLatency?: WorkflowMessageLatency | { status: 'failed'; reason: string };
    /** Issue 28: events that each start a run, closed loop at the events rate's concurrency. */
    workflowEventsRate?: WorkflowEventsRate | { status: 'failed'; reason: string };
    /** Issue 28: a workspace's timers all due in the same second, and another workspace meanwhile. */
    timersDueAtOnce?: TimersDueAtOnce | { status: 'failed'; reason: string };
    /** Issue 30: an inbound message that starts a flow bot's conversation → its reply's message.sent. */
    botReplies?: BotReplies | { status: 'failed'; reason: string };
    /** Its baseline: `POST /api/v1/messages` → message.sent at the same rate, in the same phase. */
    botReplyBaseline?: MessagesSent | { status: 'failed'; reason: string };
    /** Issue 29: a notification to an audience of a million, and another workspace's messages meanwhile. */
    broadcast?: BroadcastFigure | { status: 'failed'; reason: string };
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
  rows.push(...automationsRows(results.figures));
  rows.push(...botRows(results.figures));
  rows.push(...broadcastRows(results.figures));
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

const TIMERS_GOAL_SECONDS = 60;
/** Issue 30: new conversations a second (inbound messages, open loop), and the bot reply's p99 there. */
const BOT_RATE = 100;
const BOT_REPLY_P99_LIMIT_MS = 500;
const WORKFLOW_RATE_GOAL_RATIO = 0.8;
/** Issue 28: another workspace's event → its run's message queued while a flood of timers fires (p99). */
const TIMERS_NEIGHBOUR_P99_LIMIT_MS = 1_000;

/** Issue 29: a million-member audience's snapshot taken and every message queued within this. */
const BROADCAST_QUEUED_GOAL_SECONDS = 60;
/** Issue 29: the broadcast's messages sent per second against the API's messages rate. */
const BROADCAST_RATE_GOAL_RATIO = 1.5;
/** Issue 29: another workspace's transactional request → message sent during the broadcast (p99). */
const BROADCAST_NEIGHBOUR_P99_LIMIT_MS = 1_000;
/** Issue 29: every service's resident memory throughout. */
const BROADCAST_RSS_LIMIT_MIB = 512;

/**
 * Issue 29 (broadcasts): a notification to an audience of a million (snapshot and every message
 * queued), its messages' sending rate beside the API's messages rate of the same run, another
 * workspace's transactional messages meanwhile beside the same at rest, and every service's memory.
 */
function broadcastRows(figures: Results['figures']): Row[] {
  const figure = isMeasured(figures.broadcast) ? figures.broadcast : undefined;
  const api = isMeasured(figures.messagesSent) ? figures.messagesSent : undefined;
  const why =
    figures.broadcast === undefined
      ? 'not measured'
      : `failed: ${(figures.broadcast as { reason?: string }).reason}`;
  const rateRatio = figure && api ? ratioOf(figure.sentPerSecond, api.perSecond) : null;
  const peak = figure ? Math.max(...Object.values(figure.peakRssMiB)) : null;
  const met = (ok: boolean | undefined): Row['met'] =>
    figure ? allMet([ok]) : figures.broadcast === undefined ? 'n/a' : 'no';
  return [
    {
      id: 'broadcast-queued',
      figure: `Send now to ${thousands(figure?.members ?? 0)} members → every message queued`,
      value: figure?.allQueuedSeconds ?? null,
      unit: 's',
      shown: figure
        ? (figure.allQueuedSeconds === null
            ? `NOT within ${figure.capSeconds} s: ${thousands(figure.madeAtEnd)} of ${thousands(figure.members)} made`
            : `${figure.allQueuedSeconds} s`) +
          ` (the audience in the log after ${figure.snapshotSeconds ?? 'never'} s; ${thousands(figure.sentAtEnd)} sent when the figure ended` +
          (figure.completedSeconds !== null ? `; completed after ${figure.completedSeconds} s` : '') +
          `); set-up: contacts published and counted by the audience in ${figure.setUpSeconds} s`
        : why,
      baseline: null,
      ratio: null,
      goal: `≤ ${BROADCAST_QUEUED_GOAL_SECONDS} s`,
      met: met(figure?.allQueuedSeconds != null && figure.allQueuedSeconds <= BROADCAST_QUEUED_GOAL_SECONDS),
      cpu: formatCpu(figure?.cpu),
    },
    {
      id: 'broadcast-sent-rate',
      figure: "the broadcast's messages sent per second",
      value: figure?.sentPerSecond ?? null,
      unit: 'msg/s',
      shown: figure ? `${thousands(figure.sentPerSecond)} msg/s` : why,
      baseline: api
        ? {
            name: 'POST /api/v1/messages delivered per second (the messages figure)',
            value: api.perSecond,
            unit: 'msg/s',
          }
        : null,
      ratio: rateRatio,
      goal: `≥ ${BROADCAST_RATE_GOAL_RATIO}× the API's rate`,
      met: met(rateRatio !== null && rateRatio >= BROADCAST_RATE_GOAL_RATIO),
      cpu: '',
    },
    {
      id: 'broadcast-neighbour',
      figure: "meanwhile, another workspace's transactional request → message sent",
      value: figure?.during.p99 ?? null,
      unit: 'ms (p99)',
      shown: figure
        ? `p50 ${figure.during.p50} ms, p99 ${figure.during.p99} ms over ${figure.duringSamples} messages one after another` +
          (figure.duringMissed > 0 ? ` (${figure.duringMissed} not sent within 60 s)` : '')
        : why,
      baseline: figure
        ? { name: 'the same with the broadcast at rest (p99)', value: figure.calm.p99, unit: 'ms' }
        : null,
      ratio: figure ? ratioOf(figure.during.p99, figure.calm.p99) : null,
      goal: `p99 ≤ ${BROADCAST_NEIGHBOUR_P99_LIMIT_MS} ms`,
      met: met(
        figure !== undefined &&
          figure.duringMissed === 0 &&
          figure.during.p99 <= BROADCAST_NEIGHBOUR_P99_LIMIT_MS,
      ),
      cpu: '',
    },
    {
      id: 'broadcast-memory',
      figure: 'peak resident memory of every service over the run',
      value: peak,
      unit: 'MiB',
      shown: figure
        ? Object.entries(figure.peakRssMiB)
            .map(([name, mib]) => `${name} ${thousands(mib)}`)
            .join(', ')
        : why,
      baseline: null,
      ratio: null,
      goal: `< ${BROADCAST_RSS_LIMIT_MIB} MiB each`,
      met: met(peak !== null && peak < BROADCAST_RSS_LIMIT_MIB),
      cpu: '',
    },
  ];
}

/** The events rate the automations figures are read against: the best rate of a search, or its peak. */
function eventsRateBasis(
  search: SustainedSearch | { status: 'failed'; reason: string } | undefined,
  basis: string,
): EventsRateBasis | undefined {
  if (!isSearch(search)) return undefined;
  const step = search.best ?? search.peak;
  if (!step) return undefined;
  return {
    rps: step.rps,
    connections: step.connections,
    basis: search.best ? basis : `${basis} (its peak: no level met p99 ≤ ${search.p99LimitMs} ms)`,
  };
}

/**
 * Issue 28 (automations): an event that starts a one-step workflow to its message.sent beside a message
 * asked for through the API, events that each start a run beside events that start none, a flood of
 * timers due at once, and another workspace's events meanwhile beside the same with the flood at rest.
 */
function automationsRows(figures: Results['figures']): Row[] {
  const latency = isMeasured(figures.workflowMessageLatency) ? figures.workflowMessageLatency : undefined;
  const baseline = isMeasured(figures.messageLatency) ? figures.messageLatency : undefined;
  const rate = isMeasured(figures.workflowEventsRate) ? figures.workflowEventsRate : undefined;
  const timers = isMeasured(figures.timersDueAtOnce) ? figures.timersDueAtOnce : undefined;
  const why = (value: { status: 'failed'; reason: string } | object | undefined): string =>
    value === undefined ? 'not measured' : `failed: ${(value as { reason: string }).reason}`;
  const refused = Object.entries(latency?.refused ?? {})
    .map(([status, count]) => `${thousands(count)} × ${status}`)
    .join(', ');
  const rateRatio = rate ? ratioOf(rate.runsPerSecond, rate.eventsRate.rps) : null;
  const neighbour = timers?.neighbour;
  const statuses = Object.entries(timers?.statuses ?? {})
    .map(([status, count]) => `${thousands(count)} ${status}`)
    .join(', ');
  return [
    {
      id: 'workflow-message-latency',
      figure: "workflow: event → its run's message.sent webhook, at half the events rate",
      value: latency?.sentLatencyMs.p99 ?? null,
      unit: 'ms (p99)',
      shown: latency
        ? `p50 ${latency.sentLatencyMs.p50} ms, p95 ${latency.sentLatencyMs.p95} ms, p99 ${latency.sentLatencyMs.p99} ms ` +
          `at ${thousands(latency.rate)} events/s for ${latency.seconds} s (half of ${thousands(latency.eventsRate.rps)} req/s, ` +
          `${latency.eventsRate.basis}); ${thousands(latency.sentWebhooks)} of ${thousands(latency.accepted)} accepted had ` +
          `their message.sent (${thousands(latency.withWorkflow)} naming the run), the last ${latency.drainSeconds} s after ` +
          `the last event was due; → 202 p99 ${latency.answerMs.p99} ms` +
          (refused ? `; refused: ${refused}` : '')
        : why(figures.workflowMessageLatency),
      baseline: baseline
        ? {
            name: `POST /api/v1/messages → message.sent p99 at ${thousands(baseline.rate)}/s (half the delivered rate)`,
            value: baseline.sentLatencyMs.p99,
            unit: 'ms',
          }
        : null,
      ratio: latency && baseline ? ratioOf(latency.sentLatencyMs.p99, baseline.sentLatencyMs.p99) : null,
      goal: "none set (a message's: p99 ≤ 1 s)",
      met: 'n/a',
      cpu: formatCpu(latency?.cpu),
    },
    {
      id: 'workflow-events-rate',
      figure: 'POST /api/v1/events, every event starting a run: runs started per second',
      value: rate?.runsPerSecond ?? null,
      unit: 'runs/s',
      shown: rate
        ? `${thousands(rate.runsPerSecond)} runs/s over ${rate.seconds} s (events answered ${thousands(rate.eventsPerSecond)}/s ` +
          `at c=${rate.connections}, p50 ${rate.answerMs.p50} ms, p99 ${rate.answerMs.p99} ms` +
          (rate.failed > 0 ? `, ${thousands(rate.failed)} failed ${JSON.stringify(rate.statusCodes)}` : '') +
          `); when the load stopped ${thousands(rate.runsAtLoadEnd)} runs of ${thousands(rate.accepted)} accepted events ` +
          `and ${thousands(rate.messagesAtLoadEnd.sent)} messages sent; every run ` +
          (rate.runsCaughtUpSeconds === null
            ? 'NOT within the wait'
            : `${rate.runsCaughtUpSeconds} s later`) +
          ', every message sent ' +
          (rate.messagesCaughtUpSeconds === null
            ? 'NOT within the wait'
            : `${rate.messagesCaughtUpSeconds} s later`) +
          `; events that start no run, same concurrency and window: ${thousands(rate.withoutWorkflows.eventsPerSecond)}/s ` +
          `(p99 ${rate.withoutWorkflows.answerMs.p99} ms) with messaging and automations running` +
          (rate.beforeAutomations
            ? `, ${thousands(rate.beforeAutomations.eventsPerSecond)}/s (p99 ${rate.beforeAutomations.answerMs.p99} ms) ` +
              'before automations started'
            : '')
        : why(figures.workflowEventsRate),
      baseline: rate
        ? {
            name: `events rate, no workflow (${rate.eventsRate.basis})`,
            value: rate.eventsRate.rps,
            unit: 'req/s',
          }
        : null,
      ratio: rateRatio,
      goal: `≥ ${WORKFLOW_RATE_GOAL_RATIO}× the events rate`,
      met: rate
        ? allMet([
            rateRatio === null ? undefined : rateRatio >= WORKFLOW_RATE_GOAL_RATIO,
            rate.failed === 0,
            rate.runsCaughtUpSeconds !== null,
          ])
        : figures.workflowEventsRate === undefined
          ? 'n/a'
          : 'no',
      cpu: formatCpu(rate?.cpu),
    },
    {
      id: 'timers-due-at-once',
      figure: `a workspace's ${thousands(timers?.timers ?? 0)} timers due in the same second → every run completed`,
      value: timers?.completedSeconds ?? null,
      unit: 's',
      shown: timers
        ? (timers.completedSeconds === null
            ? `NOT ALL COMPLETED: ${thousands(timers.completed)} of ${thousands(timers.timers)} (${statuses})`
            : `${timers.completedSeconds} s`) +
          ` (every timer fired after ${timers.firedSeconds ?? 'never'} s; ${thousands(timers.messages.made)} of its messages ` +
          `made and ${thousands(timers.messages.sent)} sent by then; outbox rows at most: automations ` +
          `${thousands(timers.outboxPeak.automations)}, messaging ${thousands(timers.outboxPeak.messaging)}); set-up: facts published in ${timers.publishSeconds} s, ` +
          `every run waiting ${timers.waitingSeconds} s after the first`
        : why(figures.timersDueAtOnce),
      baseline: null,
      ratio: null,
      goal: `≤ ${TIMERS_GOAL_SECONDS} s`,
      met: timers
        ? allMet([timers.completedSeconds !== null && timers.completedSeconds <= TIMERS_GOAL_SECONDS])
        : figures.timersDueAtOnce === undefined
          ? 'n/a'
          : 'no',
      cpu: formatCpu(timers?.cpu),
    },
    {
      id: 'timers-neighbour',
      figure: "meanwhile, another workspace's event → its run's message queued",
      value: neighbour?.flooded.ms.p99 ?? null,
      unit: 'ms (p99)',
      shown: neighbour
        ? `p50 ${neighbour.flooded.ms.p50} ms, p99 ${neighbour.flooded.ms.p99} ms, max ${neighbour.flooded.ms.max} ms ` +
          `over ${neighbour.flooded.samples} events one after another (→ 202 p99 ${neighbour.flooded.answeredMs.p99} ms, ` +
          `→ its run p99 ${neighbour.flooded.runMs.p99} ms)` +
          (neighbour.flooded.missed > 0 ? ` (${neighbour.flooded.missed} never queued within 60 s)` : '') +
          `; with the flood at rest: p50 ${neighbour.calm.ms.p50} ms, p99 ${neighbour.calm.ms.p99} ms over ${neighbour.calm.samples} ` +
          `(→ 202 p99 ${neighbour.calm.answeredMs.p99} ms, → its run p99 ${neighbour.calm.runMs.p99} ms)` +
          (neighbour.calm.missed > 0 ? ` (${neighbour.calm.missed} never queued)` : '')
        : timers === undefined
          ? why(figures.timersDueAtOnce)
          : 'not measured',
      baseline: neighbour
        ? { name: 'the same, flood at rest (p99)', value: neighbour.calm.ms.p99, unit: 'ms' }
        : null,
      ratio: neighbour ? ratioOf(neighbour.flooded.ms.p99, neighbour.calm.ms.p99) : null,
      goal: `p99 ≤ ${TIMERS_NEIGHBOUR_P99_LIMIT_MS / 1000} s`,
      met: neighbour
        ? allMet([
            neighbour.flooded.samples > 0,
            neighbour.flooded.ms.p99 <= TIMERS_NEIGHBOUR_P99_LIMIT_MS,
            neighbour.flooded.missed + neighbour.calm.missed === 0,
          ])
        : figures.timersDueAtOnce === undefined
          ? 'n/a'
          : 'no',
      cpu: '',
    },
  ];
}

/**
 * Issue 30, item 7: an inbound message that starts a flow-mode bot's conversation → the bot's reply
 * reported sent, at 100 new conversations a second, beside a message asked for through the API at the
 * same rate in the same phase. At another rate (--bot-rate) the goal is not checked: it is set at 100.
 */
function botRows(figures: Results['figures']): Row[] {
  const bots = isMeasured(figures.botReplies) ? figures.botReplies : undefined;
  const api = isMeasured(figures.botReplyBaseline) ? figures.botReplyBaseline : undefined;
  const why = (value: { status: 'failed'; reason: string } | object | undefined): string =>
    value === undefined ? 'not measured' : `failed: ${(value as { reason: string }).reason}`;
  const refused = Object.entries(bots?.refused ?? {})
    .map(([status, count]) => `${thousands(count)} × ${status}`)
    .join(', ');
  const conversations = bots?.conversations
    ? Object.entries(bots.conversations)
        .map(([status, count]) => `${thousands(count)} ${status}`)
        .join(', ')
    : 'not counted';
  const rate = bots?.rate ?? api?.rate ?? BOT_RATE;
  return [
    {
      id: 'bot-reply-latency',
      figure: `bot (flow mode): inbound sandbox message → the bot's reply message.sent, ${thousands(rate)} new conversations/s`,
      value: bots?.replyLatencyMs.p99 ?? null,
      unit: 'ms (p99)',
      shown: bots
        ? `p50 ${bots.replyLatencyMs.p50} ms, p95 ${bots.replyLatencyMs.p95} ms, p99 ${bots.replyLatencyMs.p99} ms, ` +
          `max ${bots.replyLatencyMs.max} ms at ${thousands(bots.rate)} inbound/s for ${bots.seconds} s over ` +
          `${bots.workspaces} workspaces; ${thousands(bots.replies)} of ${thousands(bots.accepted)} accepted had a bot ` +
          `reply reported sent (${thousands(bots.namingBot)} naming the bot, ${thousands(bots.secondMessages)} the ` +
          `question after it too), the last ${bots.drainSeconds} s after the last inbound was due; → 202 p99 ` +
          `${bots.answerMs.p99} ms; conversations: ${conversations}` +
          (refused ? `; refused: ${refused}` : '')
        : why(figures.botReplies),
      baseline: api
        ? {
            name: `POST /api/v1/messages → message.sent p99 at ${thousands(api.rate)}/s, same phase`,
            value: api.sentLatencyMs.p99,
            unit: 'ms',
          }
        : null,
      ratio: bots && api ? ratioOf(bots.replyLatencyMs.p99, api.sentLatencyMs.p99) : null,
      goal: `p99 ≤ ${BOT_REPLY_P99_LIMIT_MS} ms at ${BOT_RATE}/s`,
      met: bots
        ? bots.rate !== BOT_RATE
          ? 'n/a'
          : allMet([
              bots.accepted > 0,
              bots.accepted === bots.requests,
              bots.replies === bots.accepted,
              bots.replyLatencyMs.p99 <= BOT_REPLY_P99_LIMIT_MS,
            ])
        : figures.botReplies === undefined
          ? 'n/a'
          : 'no',
      cpu: formatCpu(bots?.cpu),
    },
    {
      id: 'bot-reply-baseline',
      figure: `baseline: POST /api/v1/messages → message.sent at ${thousands(rate)}/s, before the bot figure`,
      value: api?.sentLatencyMs.p99 ?? null,
      unit: 'ms (p99)',
      shown: api
        ? `p50 ${api.sentLatencyMs.p50} ms, p90 ${api.sentLatencyMs.p90} ms, p99 ${api.sentLatencyMs.p99} ms, ` +
          `max ${api.sentLatencyMs.max} ms for ${api.seconds} s over ${api.workspaces} workspaces; ` +
          `${thousands(api.sentWebhooks)} of ${thousands(api.accepted)} accepted reported sent; → 202 p99 ${api.answerMs.p99} ms`
        : why(figures.botReplyBaseline),
      baseline: null,
      ratio: null,
      goal: '',
      met: 'n/a',
      cpu: formatCpu(api?.cpu),
    },
  ];
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
  // The services run on the bench's own Node: figures of another runtime than the project's compare with nothing.
  const major = Number(/^v(\d+)/.exec(process.version)?.[1]);
  if (major !== NODE_MAJOR) {
    log(`Node ${process.version} runs this; the project's is Node ${NODE_MAJOR} (npm run bench brings it)`);
    return 2;
  }
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
  /**
   * The profiles of a span a figure marks itself (started, then finished with the units of work done
   * meanwhile): `<phase>.<service>`, reported per `unit`.
   */
  const profiledSpan = (phase: string, services: ServiceName[], unit: string) => {
    let pids: Map<ServiceName, number | undefined> | undefined;
    return {
      start: (): void => {
        pids = startProfiles(services);
      },
      finish: (count: number): Promise<void> => finishProfiles(phase, pids!, () => ({ count, unit })),
    };
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

    /** The messages phase's two figures (the automations phase runs them too when it is not in the run). */
    const messagesFigures = async (system: BenchSystem): Promise<void> => {
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
    };
    if (options.phases.has('messages')) await messagesFigures(system);

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
    // Issue 28. Before segments (which stops messaging); it leaves the flood's messages to messaging.
    if (options.phases.has('automations')) {
      let basis = eventsRateBasis(results.figures.eventsRate, 'the rate phase');
      if (!basis && options.rateOverride !== undefined) {
        basis = { rps: options.rateOverride, connections: 64, basis: '--rate' };
      }
      if (!basis) {
        // As the rate phase takes it: the same requests and search, before messaging and automations start.
        log('figure: POST /api/v1/events sustained rate (the automations figures are read against it)');
        results.figures.eventsRate = await findSustainedRate(system.url, source, {
          levels: GATEWAY_LEVELS,
          seconds: size.levelSeconds,
          warmupSeconds: size.warmupSeconds,
          p99LimitMs: P99_LIMIT_MS,
          meter,
          log,
        }).catch(failed);
        basis = eventsRateBasis(results.figures.eventsRate, 'its search in this phase');
      }
      if (!options.phases.has('messages')) {
        log("the messages figures: a message asked for through the API is the first figure's baseline");
        await messagesFigures(system);
      }
      // Events that start no run, before automations reads them (with messaging, as in the figure).
      let beforeAutomations: PlainEvents | undefined;
      if (basis && !system.isRunning('automations')) {
        if (!system.isRunning('messaging')) await system.start('messaging');
        log(`events that start no run at c=${basis.connections}, before automations starts`);
        beforeAutomations = await measurePlainEvents(system, source, {
          connections: basis.connections,
          warmupSeconds: size.warmupSeconds,
          seconds: size.workflowRateSeconds,
          p99LimitMs: P99_LIMIT_MS,
        }).catch((error: unknown) => {
          log(`failed: ${errorText(error)}`);
          return undefined;
        });
      }
      for (const name of AUTOMATIONS_SERVICES) {
        if (!system.isRunning(name)) {
          log(`starting ${name}`);
          await system.start(name);
        }
      }
      // Started late, it reads the log of the phases before first (each event of them is a run input).
      const topics = system.topics;
      const caughtUp = await waitCaughtUp(
        system,
        'automations',
        [topics.requests, topics.contacts, topics.messaging],
        900_000,
        log,
      );
      log(
        `automations decided the ${thousands(caughtUp.behindAtStart)} records already in its topics in ${caughtUp.seconds} s`,
      );
      if (basis) {
        const rate = Math.max(10, Math.round(basis.rps / 2));
        log(
          `figure: event → a one-step workflow's message.sent at ${thousands(rate)} events/s (half the events rate)`,
        );
        results.figures.workflowMessageLatency = await measureWorkflowMessageLatency(
          system,
          receiver,
          { rate, seconds: size.messageSeconds, eventsRate: basis },
          meter,
          log,
        ).catch(failed);
        log(`figure: events that each start a run, closed loop at c=${basis.connections}`);
        results.figures.workflowEventsRate = await measureWorkflowEventsRate(
          system,
          {
            seconds: size.workflowRateSeconds,
            warmupSeconds: size.warmupSeconds,
            eventsRate: basis,
            p99LimitMs: P99_LIMIT_MS,
            plainEvents: source,
            ...(beforeAutomations ? { beforeAutomations } : {}),
            profile: profiledSpan('runs', ['gateway', 'contacts', 'automations', 'messaging'], 'run'),
          },
          meter,
          log,
        ).catch(failed);
      } else {
        const reason = 'no events rate to read it against (the search failed)';
        results.figures.workflowMessageLatency = failed(reason);
        results.figures.workflowEventsRate = failed(reason);
      }
      // Issue 30. Before the timers' flood, which leaves its messages to messaging.
      log(
        `figure: POST /api/v1/messages → message.sent at ${options.botRate}/s for ${size.botSeconds} s (the bot figure's baseline)`,
      );
      results.figures.botReplyBaseline = await measureMessagesSent(
        system,
        receiver,
        {
          rate: options.botRate,
          seconds: size.botSeconds,
          contactsPerWorkspace: CONTACTS_PER_MESSAGING_WORKSPACE,
        },
        meter,
        log,
        { started: () => undefined, finished: () => Promise.resolve() },
      ).catch(failed);
      log(
        `figure: inbound "menu" → a flow bot's reply message.sent at ${options.botRate} new conversations/s`,
      );
      results.figures.botReplies = await measureBotReplies(
        system,
        receiver,
        {
          rate: options.botRate,
          seconds: size.botSeconds,
          profile: profiledSpan(
            'bots',
            ['gateway', 'contacts', 'automations', 'messaging', 'webhook-dispatch'],
            'conversation',
          ),
        },
        meter,
        log,
      ).catch(failed);
      log(`figure: ${thousands(size.timers)} timers of one workspace due in the same second`);
      results.figures.timersDueAtOnce = await measureTimersDueAtOnce(
        system,
        {
          timers: size.timers,
          samples: size.timerSamples,
          profile: profiledSpan('timers', ['automations', 'messaging'], 'run'),
        },
        meter,
        log,
      ).catch(failed);
    }
    if (options.phases.has('broadcasts')) {
      if (!isMeasured(results.figures.messagesSent)) {
        log("the messages figures: a message asked for through the API is the broadcast's baseline");
        await messagesFigures(system);
      }
      for (const name of BROADCASTS_SERVICES) {
        if (!system.isRunning(name)) {
          log(`starting ${name}`);
          await system.start(name);
        }
      }
      log(`figure: a notification to ${thousands(size.broadcastMembers)} members`);
      results.figures.broadcast = await measureBroadcast(
        system,
        {
          members: size.broadcastMembers,
          samples: size.broadcastSamples,
          capSeconds: size.broadcastCapSeconds,
        },
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
      results.figures.segmentImport = await measureSegmentImport(
        system,
        {
          rows: options.importRows ?? size.segmentImportRows,
          profile: profiledSpan('import', ['gateway', 'contacts', 'segments'], 'row'),
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
  const timers = results.figures.timersDueAtOnce;
  if (isMeasured(timers)) {
    process.stdout.write(
      `\nPeak resident memory (VmHWM) of each service when the timers figure ended, MiB: ` +
        Object.entries(timers.peakRssMiB)
          .map(([name, mib]) => `${name} ${thousands(mib)}`)
          .join(', ') +
        '\n',
    );
  }
  const bots = results.figures.botReplies;
  if (isMeasured(bots)) {
    const legs = bots.legsMs;
    const stages = bots.stages;
    const stageNames: Array<[keyof NonNullable<typeof stages>['atLoadEnd'], string]> = [
      ['inbound', 'inbound messages in messaging'],
      ['conversations', 'conversations in automations'],
      ['repliesMade', 'senders with a bot message made'],
      ['repliesSent', 'sent'],
      ['webhooks', 'their message.sent received'],
    ];
    process.stdout.write(
      `\nA bot reply's trip, p50 / p99 ms from the inbound's due time: ` +
        (legs
          ? `messaging recorded the inbound (its created_at) ${legs.inboundRecorded.p50} / ${legs.inboundRecorded.p99}; ` +
            `the reply's sent_at ${legs.replySent.p50} / ${legs.replySent.p99}; `
          : '') +
        `its message.sent received ${bots.replyLatencyMs.p50} / ${bots.replyLatencyMs.p99}\n` +
        (stages
          ? `When the last of the ${thousands(bots.accepted)} accepted inbound messages was due: ` +
            stageNames.map(([key, name]) => `${thousands(stages.atLoadEnd[key])} ${name}`).join(', ') +
            '; all of them, seconds later: ' +
            stageNames.map(([key, name]) => `${name} ${stages.caughtUpSeconds[key] ?? 'never'}`).join(', ') +
            '\n'
          : ''),
    );
  }
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
