import { readFileSync } from 'node:fs';

import {
  CONSENT_CHANNELS,
  CONTACT_FACT_TYPES,
  createEnvelope,
  EVENT_FACT_TYPES,
  LINK_CHANNELS,
  type ContactSnapshotV1,
  type EventRecordedV1,
} from '@cms/contracts';
import { commitSignalChannel, envelopeRecord } from '@cms/kafka';
import { Partitioners, type Message, type PartitionMetadata } from 'kafkajs';
import { Client } from 'pg';

import { runClosedLoop, type LoadStep, type RequestSource } from '../load/closed-loop.load';
import { runOpenLoop } from '../load/open-loop.load';
import {
  latencyWithP95,
  peakRssMiB,
  rateBetween,
  workflowPhone,
  workspacesFor,
  type CountSample,
} from '../support/automations-load';
import type { BenchSystem, ServiceName, Tenant } from '../support/bench-system';
import type { CpuMeter, CpuUsage } from '../support/cpu-meter';
import type { HttpsReceiver } from '../support/https.receiver';
import { latencySummary, type LatencySummary } from '../support/percentiles';

type Summary = LatencySummary & { p95: number };

/** Where the events rate a figure is read against came from, and what it was. */
export interface EventsRateBasis {
  /** req/s of `POST /api/v1/events` with no workflow (the rate phase's figure, or its search run here). */
  rps: number;
  /** The concurrency it was reached at (the closed loop of the second figure uses the same). */
  connections: number;
  basis: string;
}

/**
 * Figure 1: an event that starts a one-step workflow → that run's message.sent webhook at the bench's
 * receiver, events offered open loop at half the events rate.
 */
export interface WorkflowMessageLatency {
  rate: number;
  seconds: number;
  eventsRate: EventsRateBasis;
  workspaces: number;
  requests: number;
  /** Answered 202. */
  accepted: number;
  /** Every other answer, by status (`error` for a request that got none). */
  refused: Record<string, number>;
  /** Accepted events whose run's message.sent webhook came (matched by its recipient: one phone each). */
  sentWebhooks: number;
  /** Of those, webhooks whose `workflow` named the workflow, its run and its step. */
  withWorkflow: number;
  /** Event due → its message.sent webhook received. */
  sentLatencyMs: Summary;
  /** Event due → 202. */
  answerMs: LatencySummary;
  /** From the last event due to the last webhook: the queue the load left behind. */
  drainSeconds: number;
  cpu: CpuUsage;
}

/** Events that start no run, closed loop at a given concurrency. */
export interface PlainEvents {
  eventsPerSecond: number;
  answerMs: { p50: number; p99: number };
}

/** Figure 2: `POST /api/v1/events` with every event starting a run, closed loop, over a fixed window. */
export interface WorkflowEventsRate {
  connections: number;
  warmupSeconds: number;
  seconds: number;
  workspaces: number;
  eventsRate: EventsRateBasis;
  /**
   * Events that start no run (the events rate's requests) at the same concurrency for the same window,
   * with messaging and automations running (`withoutWorkflows`), and before automations started
   * (`beforeAutomations`, messaging running): what automations costs the events it turns into run inputs.
   */
  withoutWorkflows: PlainEvents;
  beforeAutomations: PlainEvents | null;
  /** Events answered 202 per second over the window, and their answers' latency. */
  eventsPerSecond: number;
  answerMs: { p50: number; p99: number; max: number };
  failed: number;
  statusCodes: Record<string, number>;
  /** Runs started per second over the window: how fast the workspaces' workflow_runs rows grew. */
  runsPerSecond: number;
  /** Events accepted over warm-up and window, and runs there were of them when the load stopped. */
  accepted: number;
  runsAtLoadEnd: number;
  /** From the load's end until every accepted event had its run; null when not within the wait. */
  runsCaughtUpSeconds: number | null;
  /** Messages messaging had made for the runs when the load stopped, and those past `queued`. */
  messagesAtLoadEnd: { made: number; sent: number };
  /** From the load's end until messaging had made and sent a message for every run; null: not within the wait. */
  messagesCaughtUpSeconds: number | null;
  /** Run count read every POLL_MS during warm-up and window. */
  samples: CountSample[];
  cpu: CpuUsage;
}

/** B's samples: each event's POST sent → its run's message in messaging's table. */
export interface NeighbourSamples {
  samples: number;
  /** Events whose message never showed within SAMPLE_TIMEOUT_MS. */
  missed: number;
  ms: LatencySummary;
  /** The same trip's first legs: POST sent → its 202; → its run (with the message's id) in automations' table. */
  answeredMs: LatencySummary;
  runMs: LatencySummary;
}

/** One of B's events: when it was sent (performance.now()), and ms until its 202, its run, its message. */
interface NeighbourSample {
  startedAt: number;
  answered: number;
  run: number;
  ms: number;
}

function neighbourSamples(samples: NeighbourSample[], missed: number): NeighbourSamples {
  return {
    samples: samples.length,
    missed,
    ms: latencySummary(samples.map((sample) => sample.ms)),
    answeredMs: latencySummary(samples.map((sample) => sample.answered)),
    runMs: latencySummary(samples.map((sample) => sample.run)),
  };
}

/** Figure 3: every timer of workspace A falling due in the same second, and workspace B meanwhile. */
export interface TimersDueAtOnce {
  timers: number;
  /** A's contact and event facts published; then until all of A's runs waited on their timers. */
  publishSeconds: number;
  waitingSeconds: number;
  /** From the commit that made every timer due until none of A's was left, and until all A's runs were completed. */
  firedSeconds: number | null;
  completedSeconds: number | null;
  completed: number;
  /** A's runs by status when the figure stopped. */
  statuses: Record<string, number>;
  /** A's messages in messaging when the figure stopped: made, and past `queued`. */
  messages: { made: number; sent: number };
  neighbour: { workspaceId: number; calm: NeighbourSamples; flooded: NeighbourSamples };
  /**
   * The most rows each service's outbox held at one look while A's runs moved (looked at with every
   * count of A's completed runs): a backlog there is time every row written after it waits, A's or B's.
   */
  outboxPeak: { automations: number; messaging: number };
  /** VmHWM of each service when the figure stopped: the peak resident memory over its life, MiB. */
  peakRssMiB: Record<string, number>;
  cpu: CpuUsage;
}

const ORDER_EVENT = 'bench.order';
const LATER_EVENT = 'bench.later';
const SIGNUP_EVENT = 'bench.signup';
const HOOKS_PATH = '/automations/';
const SETUP_CONCURRENCY = 16;
/** Events a workspace takes in a figure: half a minute's budget (1,200 a workspace), so none is refused. */
const EVENTS_PER_WORKSPACE = 600;
const WEBHOOK_STALL_MS = 15_000;
const WEBHOOK_CAP_MS = 300_000;
const READY_TIMEOUT_MS = 90_000;
/** How often the second figure reads the run count while the load runs. */
const POLL_MS = 250;
/** After a load, how long the runs and messages it made may take to catch up before the figure says so. */
const CATCH_UP_CAP_MS = 600_000;
const CATCH_UP_STALL_MS = 60_000;
/** The third figure's contact and event ids: far above any the gateway mints in a bench run. */
const FIRST_FLOOD_ID = 800_000_000;
const FACTS_PER_REQUEST = 1_000;
const SAMPLE_TIMEOUT_MS = 60_000;
/** Until A's runs are all waiting, and all completed: how long progress may stop before the figure gives up. */
const FLOOD_STALL_MS = 120_000;
/** How often the third figure counts A's completed runs (a scan of them: not too often, it loads Postgres). */
const COMPLETED_POLL_MS = 500;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function inBatches<T, R>(
  items: T[],
  size: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const done: R[] = [];
  for (let start = 0; start < items.length; start += size) {
    done.push(
      ...(await Promise.all(items.slice(start, start + size).map((item, i) => work(item, start + i)))),
    );
  }
  return done;
}

/** Waits until `done` holds, or nothing has changed in `progress` for `stallMs`, or `capMs` passed. */
export async function waitFor(
  done: () => boolean | Promise<boolean>,
  progress: () => number | Promise<number>,
  stallMs: number,
  capMs: number,
  everyMs = 50,
): Promise<boolean> {
  const until = Date.now() + capMs;
  let last = await progress();
  let lastChange = Date.now();
  for (;;) {
    if (await done()) return true;
    if (Date.now() >= until || Date.now() - lastChange >= stallMs) return false;
    await sleep(everyMs);
    const now = await progress();
    if (now !== last) {
      last = now;
      lastChange = Date.now();
    }
  }
}

/** A workspace with a sandbox SMS channel, a template and one workflow. */
interface WorkflowWorkspace {
  tenant: Tenant;
  templateId: number;
  workflowId: number;
}

type Steps = (templateId: number) => Array<Record<string, unknown>>;

const sendStep: Steps = (templateId) => [
  { id: 'hello', type: 'send', route: [{ channel: 'sms', template_id: templateId }] },
];
const waitThenSend: Steps = (templateId) => [
  { id: 'later', type: 'wait', duration: 'P1D' },
  ...sendStep(templateId),
];

/** Through the public API: a sandbox SMS channel (the workspace's default) and an SMS template of `body`. */
export async function sandboxSmsTemplate(
  system: BenchSystem,
  tenant: Tenant,
  body: string,
): Promise<{ id: number }> {
  await system.create(tenant, '/api/v1/channels', {
    type: 'sms',
    name: 'bench sandbox',
    provider: 'sandbox',
  });
  return system.create<{ id: number }>(tenant, '/api/v1/templates', { name: 'bench', channel: 'sms', body });
}

/** Through the public API: an endpoint for message.sent (when `hooks` is given), channel, template, workflow. */
async function setUpWorkflow(
  system: BenchSystem,
  tenant: Tenant,
  trigger: string,
  steps: Steps,
  hooks?: string,
): Promise<WorkflowWorkspace> {
  if (hooks !== undefined) {
    await system.create(tenant, '/api/v1/webhook-endpoints', { url: hooks, event_types: ['message.sent'] });
  }
  const template = await sandboxSmsTemplate(
    system,
    tenant,
    'Hi {{ contact.name }}, thanks for order {{ event.data.order }}',
  );
  const workflow = await system.create<{ id: number }>(tenant, '/api/v1/workflows', {
    name: `bench ${trigger}`,
    trigger: { event: trigger },
    steps: steps(template.id),
  });
  return { tenant, templateId: template.id, workflowId: workflow.id };
}

function eventBody(name: string, phone: string, order: number): Record<string, unknown> {
  return { name, contact: { phone, name: 'Bench' }, data: { order, total: 42.5 } };
}

/**
 * `POST /api/v1/events` round-robin over the workspaces' keys, each event for a contact of its own:
 * the `index`th request's phone is `phones[index]`.
 */
function workflowEventSource(
  workspaces: WorkflowWorkspace[],
  series: number,
): RequestSource & { phones: string[] } {
  const authorizations = workspaces.map((workspace) => `Bearer ${workspace.tenant.key}`);
  const phones: string[] = [];
  return {
    path: '/api/v1/events',
    phones,
    next() {
      const index = phones.length;
      const phone = workflowPhone(series, index);
      phones.push(phone);
      return {
        headers: {
          authorization: authorizations[index % authorizations.length]!,
          'content-type': 'application/json',
        },
        body: JSON.stringify(eventBody(ORDER_EVENT, phone, index)),
      };
    },
  };
}

/** When each recipient's message.sent webhook came (performance.now()), and whether it named its run. */
class SentByRecipient {
  readonly sent = new Map<string, number>();
  readonly withWorkflow = new Set<string>();

  take(body: string, at: number): void {
    const envelope = JSON.parse(body) as {
      type?: string;
      data?: { recipient?: unknown; workflow?: { id?: unknown; run_id?: unknown; step?: unknown } | null };
    };
    const recipient = envelope.data?.recipient;
    if (envelope.type !== 'message.sent' || typeof recipient !== 'string' || this.sent.has(recipient)) return;
    this.sent.set(recipient, at);
    const workflow = envelope.data?.workflow;
    if (workflow && workflow.id !== undefined && workflow.run_id !== undefined && workflow.step === 'hello') {
      this.withWorkflow.add(recipient);
    }
  }
}

export async function withDatabase<T>(system: BenchSystem, work: (db: Client) => Promise<T>): Promise<T> {
  const db = new Client({ connectionString: system.stack.databaseUrl });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

export async function count(db: Client, sql: string, values: unknown[] = []): Promise<number> {
  return Number((await db.query<{ n: string }>(sql, values)).rows[0]!.n);
}

/**
 * Figure 1. Workspaces with an endpoint for message.sent on the receiver, a sandbox SMS channel, a
 * template and a workflow `bench.order` → send; one event per workspace through the whole path first;
 * then `POST /api/v1/events` at `rate` (open loop) for `seconds`, each event for a new contact. Each
 * accepted event's latency runs from its due time to the message.sent webhook of the message its run
 * made, found by the recipient (the event's phone).
 */
export async function measureWorkflowMessageLatency(
  system: BenchSystem,
  receiver: HttpsReceiver,
  options: { rate: number; seconds: number; eventsRate: EventsRateBasis },
  meter: CpuMeter,
  log: (line: string) => void,
): Promise<WorkflowMessageLatency> {
  const total = Math.round(options.rate * options.seconds);
  const workspaceCount = workspacesFor(total, EVENTS_PER_WORKSPACE, 8);
  log(
    `making ${workspaceCount} workspaces with an endpoint, a sandbox SMS channel, a template and a one-step workflow`,
  );
  const tenants = await system.tenants(workspaceCount, 'business');
  const path = `${HOOKS_PATH}latency/`;
  const workspaces = await inBatches(tenants, SETUP_CONCURRENCY, (tenant) =>
    setUpWorkflow(system, tenant, ORDER_EVENT, sendStep, receiver.url(`${path}${tenant.workspaceId}`)),
  );
  const arrivals = new SentByRecipient();
  const unwatch = receiver.watch(path, (body, at) => arrivals.take(body, at));
  try {
    // One event per workspace through the whole path first: every part is warm and works.
    const probes = await inBatches(workspaces, SETUP_CONCURRENCY, async (workspace, index) => {
      const phone = workflowPhone(0, index);
      await system.create(workspace.tenant, '/api/v1/events', eventBody(ORDER_EVENT, phone, index), 202);
      return phone;
    });
    await waitFor(
      () => probes.every((phone) => arrivals.sent.has(phone)),
      () => arrivals.sent.size,
      WEBHOOK_STALL_MS,
      READY_TIMEOUT_MS,
    );
    const probed = probes.filter((phone) => arrivals.sent.has(phone)).length;
    if (probed < probes.length) {
      throw new Error(`only ${probed} of ${probes.length} probe events' runs had their message.sent webhook`);
    }

    log(`open loop: POST /api/v1/events (each starting a run) at ${options.rate}/s for ${options.seconds} s`);
    const source = workflowEventSource(workspaces, 1);
    const start = meter.snapshot();
    const run = await runOpenLoop(system.url, source, options.rate, options.seconds);
    const accepted = run.sent
      .filter((sent) => sent.status === 202)
      .map((sent) => ({ sent, phone: source.phones[sent.index]! }));
    await waitFor(
      () => accepted.every(({ phone }) => arrivals.sent.has(phone)),
      () => arrivals.sent.size,
      WEBHOOK_STALL_MS,
      WEBHOOK_CAP_MS,
    );
    const cpu = meter.between(start, meter.snapshot());

    const refused: Record<string, number> = {};
    for (const sent of run.sent)
      if (sent.status !== 202) refused[sent.status] = (refused[sent.status] ?? 0) + 1;
    if (run.errors > 0) refused.error = run.errors;
    const arrived = accepted.filter(({ phone }) => arrivals.sent.has(phone));
    const lastDue = run.sent.reduce((last, sent) => Math.max(last, sent.dueAt), -Infinity);
    const lastArrival = arrived.reduce(
      (last, { phone }) => Math.max(last, arrivals.sent.get(phone)!),
      -Infinity,
    );
    return {
      rate: options.rate,
      seconds: options.seconds,
      eventsRate: options.eventsRate,
      workspaces: workspaceCount,
      requests: run.sent.length + run.errors,
      accepted: accepted.length,
      refused,
      sentWebhooks: arrived.length,
      withWorkflow: arrived.filter(({ phone }) => arrivals.withWorkflow.has(phone)).length,
      sentLatencyMs: latencyWithP95(arrived.map(({ sent, phone }) => arrivals.sent.get(phone)! - sent.dueAt)),
      answerMs: latencySummary(accepted.map(({ sent }) => sent.answeredAt - sent.dueAt)),
      drainSeconds: arrived.length > 0 ? Math.round((lastArrival - lastDue) / 100) / 10 : 0,
      cpu,
    };
  } finally {
    unwatch();
  }
}

/** `source`'s events closed loop at `connections`: a warm-up, then `seconds` measured. */
export async function measurePlainEvents(
  system: BenchSystem,
  source: RequestSource,
  options: { connections: number; warmupSeconds: number; seconds: number; p99LimitMs: number },
): Promise<PlainEvents> {
  const { connections, p99LimitMs } = options;
  await runClosedLoop(system.url, source, connections, options.warmupSeconds, p99LimitMs);
  const step = await runClosedLoop(system.url, source, connections, options.seconds, p99LimitMs);
  return { eventsPerSecond: step.rps, answerMs: { p50: step.latencyMs.p50, p99: step.latencyMs.p99 } };
}

/**
 * Figure 2. Workspaces with a sandbox SMS channel, a template and a workflow `bench.order` → send (no
 * endpoint: runs are counted in the automations schema); then `POST /api/v1/events` closed loop at the
 * events rate's concurrency, `warmupSeconds` and then `seconds` measured, each event for a new
 * contact. Runs started per second over the window are the growth of the workspaces' workflow_runs
 * rows, read every POLL_MS; afterwards, how long until every accepted event had its run, and
 * messaging a message sent for every run (so the next figure starts on a quiet system).
 */
export async function measureWorkflowEventsRate(
  system: BenchSystem,
  options: {
    seconds: number;
    warmupSeconds: number;
    eventsRate: EventsRateBasis;
    p99LimitMs: number;
    /** The events rate's requests: events of workspaces with no workflow. */
    plainEvents: RequestSource;
    /** The same requests measured the same way before automations started. */
    beforeAutomations?: PlainEvents;
    /** With --profile: started and finished around the measured window. */
    profile?: { start: () => void; finish: (runs: number) => Promise<void> };
  },
  meter: CpuMeter,
  log: (line: string) => void,
): Promise<WorkflowEventsRate> {
  const { connections } = options.eventsRate;
  // A closed loop may go past the rate of its search: room for half as much again.
  const expected = options.eventsRate.rps * 1.5 * (options.seconds + options.warmupSeconds);
  const workspaceCount = workspacesFor(expected, EVENTS_PER_WORKSPACE, 32);
  log(`making ${workspaceCount} workspaces with a sandbox SMS channel, a template and a one-step workflow`);
  const tenants = await system.tenants(workspaceCount, 'business');
  const workspaces = await inBatches(tenants, SETUP_CONCURRENCY, (tenant) =>
    setUpWorkflow(system, tenant, ORDER_EVENT, sendStep),
  );
  const ids = workspaces.map((workspace) => workspace.tenant.workspaceId);
  // Counted by workflow: workflow_runs is indexed by it, not by workspace.
  const workflowIds = workspaces.map((workspace) => workspace.workflowId);
  const runsTable = `"${system.schema('automations')}".workflow_runs`;
  const messagesTable = `"${system.schema('messaging')}".messages`;
  return withDatabase(system, async (db) => {
    const runs = (): Promise<number> =>
      count(db, `SELECT count(*) AS n FROM ${runsTable} WHERE workflow_id = ANY ($1::bigint[])`, [
        workflowIds,
      ]);
    const messages = async (): Promise<{ made: number; sent: number }> => {
      const row = (
        await db.query<{ made: string; sent: string }>(
          `SELECT count(*) AS made, count(*) FILTER (WHERE status <> 'queued') AS sent FROM ${messagesTable}
            WHERE workspace_id = ANY ($1::bigint[])`,
          [ids],
        )
      ).rows[0]!;
      return { made: Number(row.made), sent: Number(row.sent) };
    };
    // One event per workspace through the whole path first.
    await inBatches(workspaces, SETUP_CONCURRENCY, (workspace, index) =>
      system.create(
        workspace.tenant,
        '/api/v1/events',
        eventBody(ORDER_EVENT, workflowPhone(0, index), index),
        202,
      ),
    );
    const probed = await waitFor(
      async () => (await runs()) >= workspaces.length,
      runs,
      WEBHOOK_STALL_MS,
      READY_TIMEOUT_MS,
      200,
    );
    if (!probed) throw new Error(`the probe events started ${await runs()} runs of ${workspaces.length}`);

    const plain = await measurePlainEvents(system, options.plainEvents, {
      connections,
      warmupSeconds: options.warmupSeconds,
      seconds: options.seconds,
      p99LimitMs: options.p99LimitMs,
    });
    log(
      `${plain.eventsPerSecond} events/s (p99 ${plain.answerMs.p99} ms) that start no run, with automations running`,
    );
    await waitCaughtUp(system, 'automations', [system.topics.requests, system.topics.contacts], 300_000, log);
    const before = await runs();

    const samples: CountSample[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const at = performance.now();
        samples.push({ at, count: await runs() });
        await sleep(Math.max(0, POLL_MS - (performance.now() - at)));
      }
    })();
    const source = workflowEventSource(workspaces, 2);
    const load = async (): Promise<{
      warm: LoadStep;
      step: LoadStep;
      from: number;
      to: number;
      cpu: CpuUsage;
    }> => {
      log(
        `closed loop: POST /api/v1/events (each starting a run) at c=${connections}, ${options.warmupSeconds} s warm-up`,
      );
      const warm = await runClosedLoop(
        system.url,
        source,
        connections,
        options.warmupSeconds,
        options.p99LimitMs,
      );
      log(`closed loop at c=${connections} for ${options.seconds} s, runs counted every ${POLL_MS} ms`);
      const start = meter.snapshot();
      const startRuns = await runs();
      options.profile?.start();
      const from = performance.now();
      const step = await runClosedLoop(system.url, source, connections, options.seconds, options.p99LimitMs);
      const to = performance.now();
      const cpu = meter.between(start, meter.snapshot());
      await options.profile?.finish((await runs()) - startRuns);
      return { warm, step, from, to, cpu };
    };
    const {
      warm,
      step,
      from: windowStart,
      to: windowEnd,
      cpu,
    } = await load().finally(async () => {
      polling = false;
      await poller;
    });
    const loadEnded = performance.now();
    const runsAtLoadEnd = (await runs()) - before;
    const messagesAtLoadEnd = await messages();
    const accepted = warm.ok + step.ok;
    log(
      `${step.rps} events/s accepted; ${runsAtLoadEnd} runs of ${accepted} accepted events when the load stopped; ` +
        'waiting for the runs and their messages to catch up',
    );
    const runsCaughtUp = await waitFor(
      async () => (await runs()) - before >= accepted,
      runs,
      CATCH_UP_STALL_MS,
      CATCH_UP_CAP_MS,
      500,
    );
    const runsCaughtUpSeconds = runsCaughtUp ? Math.round((performance.now() - loadEnded) / 100) / 10 : null;
    const allRuns = await runs();
    const messagesCaughtUp = await waitFor(
      async () => {
        const now = await messages();
        return now.made >= allRuns && now.sent >= now.made;
      },
      async () => (await messages()).sent,
      CATCH_UP_STALL_MS,
      CATCH_UP_CAP_MS,
      1000,
    );
    const messagesCaughtUpSeconds = messagesCaughtUp
      ? Math.round((performance.now() - loadEnded) / 100) / 10
      : null;
    return {
      connections,
      warmupSeconds: options.warmupSeconds,
      seconds: options.seconds,
      workspaces: workspaceCount,
      eventsRate: options.eventsRate,
      withoutWorkflows: plain,
      beforeAutomations: options.beforeAutomations ?? null,
      eventsPerSecond: step.rps,
      answerMs: { p50: step.latencyMs.p50, p99: step.latencyMs.p99, max: step.latencyMs.max },
      failed: step.non2xx + step.errors + warm.non2xx + warm.errors,
      statusCodes: step.statusCodes,
      runsPerSecond: Math.round(rateBetween(samples, windowStart, windowEnd)),
      accepted,
      runsAtLoadEnd,
      runsCaughtUpSeconds,
      messagesAtLoadEnd,
      messagesCaughtUpSeconds,
      samples: samples.map((sample) => ({
        at: Math.round(sample.at - windowStart),
        count: sample.count - before,
      })),
      cpu,
    };
  });
}

/**
 * Records of `topics` that `service` has not decided yet: the topics' high offsets against its
 * checkpoints (the rows in its schema, which are the truth of what it applied or read past).
 */
async function recordsBehind(
  system: BenchSystem,
  db: Client,
  service: ServiceName,
  topics: string[],
): Promise<number> {
  const admin = system.kafka.admin();
  await admin.connect();
  try {
    const rows = await db.query<{ topic: string; partition: number; next_offset: string }>(
      `SELECT topic, partition, max(next_offset) AS next_offset FROM "${system.schema(service)}".consumer_checkpoints
        WHERE topic = ANY ($1::text[]) GROUP BY topic, partition`,
      [topics],
    );
    const applied = new Map(
      rows.rows.map((row) => [`${row.topic}/${row.partition}`, Number(row.next_offset)]),
    );
    let behind = 0;
    for (const topic of topics) {
      for (const { partition, high } of await admin.fetchTopicOffsets(topic)) {
        behind += Math.max(0, Number(high) - (applied.get(`${topic}/${partition}`) ?? 0));
      }
    }
    return behind;
  } finally {
    await admin.disconnect();
  }
}

/**
 * Waits until a service started late has decided every record already in the topics it reads. It
 * reports ready at once, but a request waits behind the whole log in its partition: a workflow written
 * before automations caught up with the run's earlier phases is answered 503 by the gateway (its
 * outcome timeout, 10 s).
 */
export async function waitCaughtUp(
  system: BenchSystem,
  service: ServiceName,
  topics: string[],
  timeoutMs: number,
  log: (line: string) => void,
): Promise<{ seconds: number; behindAtStart: number }> {
  return withDatabase(system, async (db) => {
    const started = performance.now();
    const behindAtStart = await recordsBehind(system, db, service, topics).catch(() => -1);
    let lastReport = Date.now();
    for (;;) {
      // Its schema and checkpoints appear with its first chunk.
      const behind = await recordsBehind(system, db, service, topics).catch(() => -1);
      if (behind === 0)
        return { seconds: Math.round((performance.now() - started) / 100) / 10, behindAtStart };
      if (performance.now() - started > timeoutMs) {
        throw new Error(`${service} is still ${behind} records behind after ${timeoutMs / 1000} s`);
      }
      if (Date.now() - lastReport >= 10_000) {
        log(`${service}: ${behind} records of ${topics.join(', ')} still to decide`);
        lastReport = Date.now();
      }
      await sleep(500);
    }
  });
}

/** The partition of the requests topic a workspace's requests go to, as the services' producers place them. */
export async function requestPartitioner(system: BenchSystem): Promise<(workspaceId: number) => number> {
  const admin = system.kafka.admin();
  await admin.connect();
  let partitions: PartitionMetadata[];
  try {
    const metadata = await admin.fetchTopicMetadata({ topics: [system.topics.requests] });
    partitions = metadata.topics[0]!.partitions;
  } finally {
    await admin.disconnect();
  }
  const partitioner = Partitioners.DefaultPartitioner();
  return (id) =>
    partitioner({
      topic: system.topics.requests,
      partitionMetadata: partitions,
      message: { key: String(id), value: null },
    });
}

/** What a flood of contacts is: their ids from `firstId`, their phones of `series`, and their facts. */
export interface FloodContacts {
  firstId: number;
  series: number;
  /** An `event.recorded` of this name after each contact's snapshot; none when absent. */
  event?: string;
  data?: Record<string, unknown>;
  /** Consent to marketing by sms (null otherwise). */
  smsConsent?: boolean;
}

/**
 * Contacts (and, with `event`, an event each) as the contacts service publishes them (a
 * `contact.created` snapshot, then an `event.recorded`; the shapes of the hostile-tenant tests), keyed
 * by workspace, a thousand records a produce request, one request at a time (a contact before its
 * event).
 */
export async function publishFlood(
  system: BenchSystem,
  workspaceId: number,
  contacts: number,
  flood: FloodContacts = { firstId: FIRST_FLOOD_ID, series: 4, event: LATER_EVENT },
): Promise<void> {
  const producer = system.kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    retry: { retries: Number.MAX_SAFE_INTEGER, initialRetryTime: 100, maxRetryTime: 5000 },
  });
  await producer.connect();
  const now = new Date().toISOString();
  const topic = system.topics.contacts;
  try {
    let messages: Message[] = [];
    const flush = async (): Promise<void> => {
      if (messages.length === 0) return;
      await producer.send({ topic, acks: -1, messages });
      messages = [];
    };
    for (let index = 0; index < contacts; index += 1) {
      const contactId = flood.firstId + index;
      const snapshot: ContactSnapshotV1 = {
        contact_id: contactId,
        name: 'Flood',
        phone: workflowPhone(flood.series, index),
        email: null,
        external_id: null,
        source: null,
        data: flood.data ?? {},
        marketing_consent: Object.fromEntries(
          CONSENT_CHANNELS.map((channel) => [channel, channel === 'sms' && flood.smsConsent ? true : null]),
        ) as ContactSnapshotV1['marketing_consent'],
        tag_ids: [],
        channels: Object.fromEntries(
          LINK_CHANNELS.map((channel) => [channel, null]),
        ) as ContactSnapshotV1['channels'],
        created_at: now,
        updated_at: now,
      };
      const facts: Array<readonly [string, object]> = [[CONTACT_FACT_TYPES.created, snapshot]];
      if (flood.event !== undefined) {
        const event: EventRecordedV1 = {
          event_id: contactId,
          name: flood.event,
          contact_id: contactId,
          // What the workflows' template reads (`event.data.order`), so that their messages render.
          data: { order: index },
          occurred_at: now,
          received_at: now,
          idempotency_key: null,
        };
        facts.push([EVENT_FACT_TYPES.recorded, event]);
      }
      for (const [type, data] of facts) {
        const record = envelopeRecord(
          topic,
          createEnvelope({
            type,
            source: 'contacts',
            workspaceid: String(workspaceId),
            subject: String(contactId),
            data,
          }),
        );
        messages.push({ key: record.key, value: record.value, headers: record.headers });
      }
      if (messages.length >= FACTS_PER_REQUEST) await flush();
    }
    await flush();
  } finally {
    await producer.disconnect();
  }
}

/**
 * B records an event that starts its one-step workflow; the ms from sending it until the message its
 * run made is in messaging's table. Polled in the tables, not through the API: B's budget is for its
 * writes (as the hostile-tenant test's bEventToQueued).
 */
async function eventToQueued(
  system: BenchSystem,
  db: Client,
  b: Tenant,
  phone: string,
): Promise<NeighbourSample | undefined> {
  const runs = `"${system.schema('automations')}".workflow_runs`;
  const messages = `"${system.schema('messaging')}".messages`;
  const started = performance.now();
  const answer = await system.api<{ data: { contact_id: number } }>(b, 'POST', '/api/v1/events', {
    name: SIGNUP_EVENT,
    contact: { phone, name: 'Bea' },
  });
  if (answer.status !== 202)
    throw new Error(`B's event answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  const answered = performance.now() - started;
  const contactId = answer.body.data.contact_id;
  const until = started + SAMPLE_TIMEOUT_MS;
  let messageId: string | undefined;
  while (messageId === undefined) {
    const row = await db.query<{ id: string | null }>(
      `SELECT history->0->>'message_id' AS id FROM ${runs} WHERE workspace_id = $1 AND contact_id = $2`,
      [b.workspaceId, contactId],
    );
    messageId = row.rows[0]?.id ?? undefined;
    if (messageId === undefined) {
      if (performance.now() > until) return undefined;
      await sleep(5);
    }
  }
  const run = performance.now() - started;
  while ((await count(db, `SELECT count(*) AS n FROM ${messages} WHERE id = $1`, [messageId])) === 0) {
    if (performance.now() > until) return undefined;
    await sleep(5);
  }
  return { startedAt: started, answered, run, ms: performance.now() - started };
}

export function peakRss(system: BenchSystem): Record<string, number> {
  const peaks: Record<string, number> = {};
  for (const [pid, name] of system.pids()) {
    try {
      const peak = peakRssMiB(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (peak !== undefined) peaks[name] = peak;
    } catch {
      // The process ended.
    }
  }
  return peaks;
}

/**
 * Figure 3. Workspace A has a workflow `bench.later` → wait P1D → send; `timers` contacts and events of
 * A are published straight into the contacts topic (the events API's 1,200 a minute would take most of
 * an hour for 100,000), so A gets as many runs waiting on a timer. Workspace B, whose requests go to
 * another partition of the requests topic, has a workflow `bench.signup` → send. B's event → its
 * message queued is timed `samples` times one after another with A at rest; then one transaction moves
 * every A timer to now and signals the timer worker (as a timer falling due wakes it), and the figure
 * is the time until every run of A is completed, while B goes on timing its events.
 */
export async function measureTimersDueAtOnce(
  system: BenchSystem,
  options: {
    timers: number;
    samples: number;
    /** With --profile: started when A's timers fall due, finished when its runs are all completed. */
    profile?: { start: () => void; finish: (runs: number) => Promise<void> };
  },
  meter: CpuMeter,
  log: (line: string) => void,
): Promise<TimersDueAtOnce> {
  const partitionOf = await requestPartitioner(system);
  const [aTenant] = await system.tenants(1, 'business');
  let bTenant: Tenant | undefined;
  for (let tries = 0; tries < 8 && bTenant === undefined; tries += 1) {
    const [candidate] = await system.tenants(1, 'business');
    if (partitionOf(candidate!.workspaceId) !== partitionOf(aTenant!.workspaceId)) bTenant = candidate;
  }
  if (!bTenant) throw new Error("no workspace on another partition of the requests topic than A's");
  const a = await setUpWorkflow(system, aTenant!, LATER_EVENT, waitThenSend);
  const b = await setUpWorkflow(system, bTenant, SIGNUP_EVENT, sendStep);
  const automations = `"${system.schema('automations')}"`;
  const messaging = `"${system.schema('messaging')}"`;
  const aId = a.tenant.workspaceId;

  return withDatabase(system, async (db) => {
    const timers = (): Promise<number> =>
      count(db, `SELECT count(*) AS n FROM ${automations}.run_timers WHERE workspace_id = $1`, [aId]);
    const completed = (): Promise<number> =>
      count(
        db,
        `SELECT count(*) AS n FROM ${automations}.workflow_runs WHERE workflow_id = $1 AND status = 'completed'`,
        [a.workflowId],
      );

    log(
      `publishing ${options.timers} contacts and ${LATER_EVENT} events of workspace ${aId} to the contacts topic`,
    );
    const published = performance.now();
    await publishFlood(system, aId, options.timers);
    const publishSeconds = (performance.now() - published) / 1000;
    log(`published in ${publishSeconds.toFixed(1)} s; waiting until every run of A waits on its timer`);
    const waiting = await waitFor(
      async () => (await timers()) >= options.timers,
      timers,
      FLOOD_STALL_MS,
      3_600_000,
      1000,
    );
    if (!waiting) throw new Error(`only ${await timers()} of A's ${options.timers} runs wait on a timer`);
    const waitingSeconds = (performance.now() - published) / 1000;
    // A at rest: messaging's view holds A's contacts too (it reads the same facts), so nothing of the
    // flood's set-up is left in flight while B is timed calm.
    const viewed = await waitFor(
      async () =>
        (await count(db, `SELECT count(*) AS n FROM ${messaging}.contacts WHERE workspace_id = $1`, [aId])) >=
        options.timers,
      () => count(db, `SELECT count(*) AS n FROM ${messaging}.contacts WHERE workspace_id = $1`, [aId]),
      FLOOD_STALL_MS,
      3_600_000,
      1000,
    );
    if (!viewed) log("messaging's view did not take all of A's contacts; timing B anyway");
    log(
      `${options.timers} runs waiting after ${waitingSeconds.toFixed(1)} s; B's event → message queued, A at rest`,
    );

    let phone = 0;
    const calm: NeighbourSample[] = [];
    let calmMissed = 0;
    await eventToQueued(system, db, b.tenant, workflowPhone(3, phone++));
    for (let index = 0; index < options.samples; index += 1) {
      const sample = await eventToQueued(system, db, b.tenant, workflowPhone(3, phone++));
      if (sample === undefined) calmMissed += 1;
      else calm.push(sample);
    }

    log(`every timer of A due now; B goes on timing its events until A's runs are all completed`);
    options.profile?.start();
    const start = meter.snapshot();
    await db.query('BEGIN');
    await db.query(`UPDATE ${automations}.run_timers SET due_at = now() WHERE workspace_id = $1`, [aId]);
    // As a timer falling due wakes the worker (its earliest due time), not its safety poll.
    await db.query('SELECT pg_notify($1, $2)', [
      commitSignalChannel('run_timers', system.schema('automations')),
      '',
    ]);
    await db.query('COMMIT');
    const due = performance.now();

    let finished = false;
    /** B's samples while A's runs move. */
    const flooded: NeighbourSample[] = [];
    let floodMissed = 0;
    const neighbour = (async () => {
      const sampler = new Client({ connectionString: system.stack.databaseUrl });
      await sampler.connect();
      try {
        while (!finished) {
          const sample = await eventToQueued(system, sampler, b.tenant, workflowPhone(3, phone++));
          if (sample === undefined) floodMissed += 1;
          else flooded.push(sample);
        }
      } finally {
        await sampler.end();
      }
    })();

    let firedSeconds: number | null = null;
    let done = 0;
    const outboxPeak = { automations: 0, messaging: 0 };
    const allCompleted = await waitFor(
      async () => {
        if (firedSeconds === null && (await timers()) === 0) firedSeconds = (performance.now() - due) / 1000;
        outboxPeak.automations = Math.max(
          outboxPeak.automations,
          await count(db, `SELECT count(*) AS n FROM ${automations}.outbox`, []),
        );
        outboxPeak.messaging = Math.max(
          outboxPeak.messaging,
          await count(db, `SELECT count(*) AS n FROM ${messaging}.outbox`, []),
        );
        done = await completed();
        return done >= options.timers;
      },
      () => done,
      FLOOD_STALL_MS,
      3_600_000,
      COMPLETED_POLL_MS,
    );
    const stopped = performance.now();
    const completedSeconds = allCompleted ? (stopped - due) / 1000 : null;
    finished = true;
    const cpu = meter.between(start, meter.snapshot());
    await options.profile?.finish(done);
    await neighbour;
    // Only B's events sent while A's runs were still moving.
    const during = flooded.filter((sample) => sample.startedAt < stopped);
    const statuses = Object.fromEntries(
      (
        await db.query<{ status: string; n: string }>(
          `SELECT status, count(*) AS n FROM ${automations}.workflow_runs WHERE workflow_id = $1 GROUP BY status`,
          [a.workflowId],
        )
      ).rows.map((row) => [row.status, Number(row.n)]),
    );
    const made = (
      await db.query<{ made: string; sent: string }>(
        `SELECT count(*) AS made, count(*) FILTER (WHERE status <> 'queued') AS sent FROM ${messaging}.messages
          WHERE workspace_id = $1`,
        [aId],
      )
    ).rows[0]!;
    const round = (seconds: number | null): number | null =>
      seconds === null ? null : Math.round(seconds * 10) / 10;
    return {
      timers: options.timers,
      publishSeconds: round(publishSeconds)!,
      waitingSeconds: round(waitingSeconds)!,
      firedSeconds: round(firedSeconds),
      completedSeconds: round(completedSeconds),
      completed: done,
      statuses,
      messages: { made: Number(made.made), sent: Number(made.sent) },
      neighbour: {
        workspaceId: b.tenant.workspaceId,
        calm: neighbourSamples(calm, calmMissed),
        flooded: neighbourSamples(during, floodMissed),
      },
      outboxPeak,
      peakRssMiB: peakRss(system),
      cpu,
    };
  });
}

/** The services the phase needs besides those the bench starts first. */
export const AUTOMATIONS_SERVICES: ServiceName[] = ['messaging', 'automations'];
