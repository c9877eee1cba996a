import type { RequestSource } from '../load/closed-loop.load';
import { runOpenLoop, type Sent } from '../load/open-loop.load';
import { countAt, latencyWithP95, workflowPhone, workspacesFor } from '../support/automations-load';
import type { BenchSystem, Tenant } from '../support/bench-system';
import type { CpuMeter, CpuUsage } from '../support/cpu-meter';
import type { HttpsReceiver } from '../support/https.receiver';
import { latencySummary, type LatencySummary } from '../support/percentiles';
import { count, inBatches, waitFor, withDatabase } from './automations.figure';

type Summary = LatencySummary & { p95: number };

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Issue 30, item 7: a contact's inbound message that starts a flow-mode keyword bot's conversation →
 * the message.sent webhook of the bot's first reply, inbound messages offered open loop, each from a
 * sender of its own (a new contact and a new conversation).
 */
export interface BotReplies {
  /** Inbound messages (so conversations) asked for a second, open loop, and for how long. */
  rate: number;
  seconds: number;
  workspaces: number;
  requests: number;
  /** Answered 202 with the inbound message. */
  accepted: number;
  /** Every other answer, by status (`error` for a request that got none). */
  refused: Record<string, number>;
  /** Accepted inbound messages whose bot reply's message.sent webhook came (matched by recipient). */
  replies: number;
  /** Of those, replies whose `bot` named the workspace's bot and a conversation. */
  namingBot: number;
  /** Senders whose second bot message (the question step's text) was reported sent too. */
  secondMessages: number;
  /** Inbound due → the first bot message.sent webhook to its sender. */
  replyLatencyMs: Summary;
  /** Inbound due → 202. */
  answerMs: LatencySummary;
  /**
   * Two legs of the trip by the services' own clocks, from the inbound's due time: the inbound's
   * `created_at` in messaging (its request record's time, which the conversation's `started_at` and
   * the reply's `created_at` carry on, so they are no legs of their own) and the reply's `sent_at`.
   * Null when unread.
   */
  legsMs: { inboundRecorded: LatencySummary; replySent: LatencySummary } | null;
  /** Where the queue was: each stage's count over the load's senders, read every STAGE_POLL_MS. */
  stages: Stages | null;
  /** From the last inbound due to the last first reply: the queue the load left behind. */
  drainSeconds: number;
  /** The load's bots' conversations by status when the figure ended (the probes' included); null: unread. */
  conversations: Record<string, number> | null;
  cpu: CpuUsage;
}

export interface StageCounts {
  /** Inbound messages messaging holds, conversations automations holds, senders with a bot message made and sent. */
  inbound: number;
  conversations: number;
  repliesMade: number;
  repliesSent: number;
  /** Senders whose first bot message.sent webhook the receiver had. */
  webhooks: number;
}

export interface Stages {
  /** Each count when the last inbound was due (between the samples around it). */
  atLoadEnd: StageCounts;
  /** Seconds from the last inbound due until each count reached the accepted inbound messages; null: never. */
  caughtUpSeconds: Record<keyof StageCounts, number | null>;
}

/** Each key allows 120 requests a minute: three go to setting up, one to the probe, these to the load. */
const INBOUND_PER_KEY = 100;
const SETUP_CONCURRENCY = 16;
const HOOKS_PATH = '/bots/';
const KEYWORD = 'menu';
const FLOW = {
  steps: [
    { id: 'hi', type: 'message', text: 'Hello! Reply 1 or 2.' },
    { id: 'pick', type: 'question', text: 'Which one?' },
    { id: 'bye', type: 'message', text: 'Thanks' },
  ],
};
/** Phones of the probes and of the load: new senders, distinct across the figure's workspaces. */
const PROBE_SERIES = 6;
const LOAD_SERIES = 7;
const READY_TIMEOUT_MS = 90_000;
const STALL_MS = 15_000;
const REPLIES_CAP_MS = 180_000;
/** How often the stages are counted while the load runs and drains (scans of the figure's rows). */
const STAGE_POLL_MS = 500;
/** When the probes' replies do not come: the workspaces whose conversations the error describes. */
const DIAGNOSED_WORKSPACES = 3;

/** A workspace with an endpoint for message.sent on the receiver, a sandbox SMS channel and the bot. */
interface BotWorkspace {
  tenant: Tenant;
  channelId: number;
  botId: number;
}

/** A bot message.sent webhook: when it came (performance.now()), the message and the bot it named. */
interface BotSent {
  at: number;
  messageId: string;
  botId: unknown;
  conversationId: unknown;
}

/** Each recipient's bot messages reported sent, in the order their webhooks came. */
class BotMessagesByRecipient {
  readonly sent = new Map<string, BotSent[]>();

  take(body: string, at: number): void {
    const envelope = JSON.parse(body) as {
      type?: string;
      data?: {
        id?: unknown;
        recipient?: unknown;
        bot?: { id?: unknown; conversation_id?: unknown } | null;
      };
    };
    const { recipient, bot, id } = envelope.data ?? {};
    if (envelope.type !== 'message.sent' || typeof recipient !== 'string' || !bot || typeof id !== 'string') {
      return;
    }
    const list = this.sent.get(recipient) ?? [];
    if (list.some((sent) => sent.messageId === id)) return;
    list.push({ at, messageId: id, botId: bot.id, conversationId: bot.conversation_id });
    this.sent.set(recipient, list);
  }

  first(recipient: string): BotSent | undefined {
    return this.sent.get(recipient)?.[0];
  }
}

/** Through the public API: the endpoint, a sandbox SMS channel, and a flow-mode keyword bot. */
async function setUp(system: BenchSystem, tenant: Tenant, hooks: string): Promise<BotWorkspace> {
  await system.create(tenant, '/api/v1/webhook-endpoints', { url: hooks, event_types: ['message.sent'] });
  const channel = await system.create<{ id: number }>(tenant, '/api/v1/channels', {
    type: 'sms',
    name: 'bench sandbox',
    provider: 'sandbox',
  });
  const bot = await system.create<{ id: number }>(tenant, '/api/v1/bots', {
    name: 'Menu',
    mode: 'flow',
    trigger_type: 'keyword',
    trigger_value: KEYWORD,
    flow_definition: FLOW,
  });
  return { tenant, channelId: channel.id, botId: bot.id };
}

function inboundPath(workspace: BotWorkspace): string {
  return `/api/v1/channels/${workspace.channelId}/sandbox/inbound`;
}

/** The keyword from `phone`, round-robin over the workspaces' channels: the `index`th from `phones[index]`. */
function inboundSource(workspaces: BotWorkspace[]): RequestSource & { phones: string[] } {
  const phones: string[] = [];
  return {
    path: inboundPath(workspaces[0]!),
    phones,
    next() {
      const index = phones.length;
      const workspace = workspaces[index % workspaces.length]!;
      const phone = workflowPhone(LOAD_SERIES, index);
      phones.push(phone);
      return {
        path: inboundPath(workspace),
        headers: { authorization: `Bearer ${workspace.tenant.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ from: phone, text: KEYWORD }),
      };
    },
  };
}

function inboundIdOf(sent: Sent): string | undefined {
  if (sent.status !== 202) return undefined;
  try {
    const id = (JSON.parse(sent.body) as { data?: { id?: unknown } }).data?.id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** What `GET /api/v1/bots/{id}/conversations` says of a workspace whose probe had no reply, in a line. */
async function describeConversations(system: BenchSystem, workspace: BotWorkspace): Promise<string> {
  const answer = await system.api<{ data?: Array<Record<string, unknown>> }>(
    workspace.tenant,
    'GET',
    `/api/v1/bots/${workspace.botId}/conversations`,
  );
  if (answer.status !== 200) {
    return `bot ${workspace.botId}: conversations answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`;
  }
  const conversations = answer.body.data ?? [];
  const each = conversations.map((conversation) => {
    const messages = Array.isArray(conversation.messages)
      ? (conversation.messages as Array<{ direction?: string; message_id?: unknown }>)
      : [];
    const outbound = messages.filter((message) => message.direction === 'outbound');
    return (
      `${String(conversation.status)} at ${String(conversation.current_step)}` +
      (conversation.end_reason ? ` (${String(conversation.end_reason)})` : '') +
      `, ${messages.length - outbound.length} in / ${outbound.length} out` +
      (outbound.some((message) => message.message_id === null) ? ' (an outbound without message id)' : '')
    );
  });
  return `bot ${workspace.botId}: ${conversations.length} conversation(s)${each.length > 0 ? `: ${each.join('; ')}` : ''}`;
}

/** Postgres timestamps (created_at, sent_at) of messages, in performance.now() terms. */
async function messageTimes(
  system: BenchSystem,
  messageIds: string[],
): Promise<{ created: Map<string, number>; sent: Map<string, number> }> {
  const messages = `"${system.schema('messaging')}".messages`;
  // Epoch milliseconds to this process's performance.now() clock.
  const local = (epochMs: string): number => Number(epochMs) - performance.timeOrigin;
  return withDatabase(system, async (db) => {
    const rows = await db.query<{ id: string; created: string; sent: string | null }>(
      `SELECT id, (extract(epoch FROM created_at) * 1000)::text AS created,
              (extract(epoch FROM sent_at) * 1000)::text AS sent
         FROM ${messages} WHERE id = ANY ($1::text[])`,
      [messageIds],
    );
    const created = new Map<string, number>();
    const sent = new Map<string, number>();
    for (const row of rows.rows) {
      created.set(row.id, local(row.created));
      if (row.sent !== null) sent.set(row.id, local(row.sent));
    }
    return { created, sent };
  });
}

/** A count of each stage but the webhooks at one moment (performance.now()). */
type StageSample = Omit<StageCounts, 'webhooks'> & { at: number };

/**
 * Counts the stages of the figure's workspaces every STAGE_POLL_MS until `stop` is called, and once
 * more then: inbound messages and senders with a bot message made and sent (messaging's table),
 * conversations (automations'). A failed count ends the polling; `stop` answers whether all went well.
 */
function pollStages(
  system: BenchSystem,
  workspaces: BotWorkspace[],
  log: (line: string) => void,
): { samples: StageSample[]; stop: () => Promise<boolean> } {
  const messages = `"${system.schema('messaging')}".messages`;
  const conversations = `"${system.schema('automations')}".bot_conversations`;
  const workspaceIds = workspaces.map((workspace) => workspace.tenant.workspaceId);
  const botIds = workspaces.map((workspace) => workspace.botId);
  const samples: StageSample[] = [];
  let polling = true;
  let ok = true;
  const poller = withDatabase(system, async (db) => {
    const sample = async (): Promise<void> => {
      const at = performance.now();
      const made = (
        await db.query<{ inbound: string; made: string; sent: string }>(
          `SELECT count(*) FILTER (WHERE direction = 'inbound') AS inbound,
                  count(DISTINCT recipient) FILTER (WHERE bot IS NOT NULL) AS made,
                  count(DISTINCT recipient) FILTER (WHERE bot IS NOT NULL AND sent_at IS NOT NULL) AS sent
             FROM ${messages} WHERE workspace_id = ANY ($1::bigint[])`,
          [workspaceIds],
        )
      ).rows[0]!;
      const started = await count(
        db,
        `SELECT count(*) AS n FROM ${conversations} WHERE bot_id = ANY ($1::bigint[])`,
        [botIds],
      );
      samples.push({
        at,
        inbound: Number(made.inbound),
        conversations: started,
        repliesMade: Number(made.made),
        repliesSent: Number(made.sent),
      });
    };
    do {
      const at = performance.now();
      await sample();
      await sleep(Math.max(0, STAGE_POLL_MS - (performance.now() - at)));
    } while (polling);
    await sample();
  }).catch((error: unknown) => {
    ok = false;
    log(`the stages could not be counted: ${String(error)}`);
  });
  return {
    samples,
    stop: async () => {
      polling = false;
      await poller;
      return ok;
    },
  };
}

/**
 * Each stage's count when the last inbound was due, and how long after that it reached `expected`;
 * counted from the first sample (taken before the load: the probes' conversations are not the load's).
 */
function stagesOf(samples: StageSample[], webhookTimes: number[], expected: number, lastDue: number): Stages {
  const base = samples[0]!;
  const seconds = (at: number | undefined): number | null =>
    at === undefined ? null : Math.max(0, Math.round((at - lastDue) / 100) / 10);
  const atLoadEnd: StageCounts = {
    inbound: 0,
    conversations: 0,
    repliesMade: 0,
    repliesSent: 0,
    webhooks: webhookTimes.filter((at) => at <= lastDue).length,
  };
  const sorted = [...webhookTimes].sort((a, b) => a - b);
  const caughtUpSeconds: Stages['caughtUpSeconds'] = {
    inbound: null,
    conversations: null,
    repliesMade: null,
    repliesSent: null,
    webhooks: seconds(expected > 0 && sorted.length >= expected ? sorted[expected - 1] : undefined),
  };
  for (const key of ['inbound', 'conversations', 'repliesMade', 'repliesSent'] as const) {
    const curve = samples.map((sample) => ({ at: sample.at, count: sample[key] - base[key] }));
    atLoadEnd[key] = Math.round(countAt(curve, lastDue));
    caughtUpSeconds[key] = seconds(curve.find((point) => point.count >= expected)?.at);
  }
  return { atLoadEnd, caughtUpSeconds };
}

/**
 * Workspaces with an endpoint for message.sent on the receiver, a sandbox SMS channel and a flow-mode
 * keyword bot (`menu` → a message, a question, a message); one inbound `menu` per workspace through the
 * whole path first; then `POST /api/v1/channels/{id}/sandbox/inbound` at `rate` (open loop) for
 * `seconds`, each from a phone of its own (a new contact: unknown senders on phone channels become
 * one). Each accepted inbound's latency runs from its due time to the message.sent webhook of the first
 * bot message to its sender (its recipient, with `bot` set).
 */
export async function measureBotReplies(
  system: BenchSystem,
  receiver: HttpsReceiver,
  options: {
    rate: number;
    seconds: number;
    /** With --profile: started with the open loop, finished when every accepted inbound had its reply. */
    profile?: { start: () => void; finish: (conversations: number) => Promise<void> };
  },
  meter: CpuMeter,
  log: (line: string) => void,
): Promise<BotReplies> {
  const total = Math.round(options.rate * options.seconds);
  const workspaceCount = workspacesFor(total, INBOUND_PER_KEY, 4);
  log(
    `making ${workspaceCount} workspaces with an endpoint, a sandbox SMS channel and a flow-mode keyword bot`,
  );
  const tenants = await system.tenants(workspaceCount, 'business');
  const workspaces = await inBatches(tenants, SETUP_CONCURRENCY, (tenant) =>
    setUp(system, tenant, receiver.url(`${HOOKS_PATH}${tenant.workspaceId}`)),
  );
  const botIds = new Set(workspaces.map((workspace) => workspace.botId));
  const arrivals = new BotMessagesByRecipient();
  const unwatch = receiver.watch(HOOKS_PATH, (body, at) => arrivals.take(body, at));
  try {
    // One conversation per workspace through the whole path first: every part is warm and works.
    const probes = await inBatches(workspaces, SETUP_CONCURRENCY, async (workspace, index) => {
      const phone = workflowPhone(PROBE_SERIES, index);
      await system.create(workspace.tenant, inboundPath(workspace), { from: phone, text: KEYWORD }, 202);
      return { workspace, phone };
    });
    await waitFor(
      () => probes.every(({ phone }) => arrivals.first(phone) !== undefined),
      () => arrivals.sent.size,
      STALL_MS,
      READY_TIMEOUT_MS,
    );
    const unanswered = probes.filter(({ phone }) => arrivals.first(phone) === undefined);
    if (unanswered.length > 0) {
      const described = await Promise.all(
        unanswered
          .slice(0, DIAGNOSED_WORKSPACES)
          .map(({ workspace }) =>
            describeConversations(system, workspace).catch((error: unknown) => String(error)),
          ),
      );
      throw new Error(
        `${unanswered.length} of ${probes.length} probe conversations had no bot reply reported sent ` +
          `within ${READY_TIMEOUT_MS / 1000} s; ${described.join(' | ')}`,
      );
    }

    log(
      `open loop: POST /api/v1/channels/{id}/sandbox/inbound "${KEYWORD}" at ${options.rate}/s for ${options.seconds} s`,
    );
    const source = inboundSource(workspaces);
    const stagePoll = pollStages(system, workspaces, log);
    const start = meter.snapshot();
    options.profile?.start();
    const run = await runOpenLoop(system.url, source, options.rate, options.seconds);
    const accepted = run.sent.flatMap((sent) => {
      const inboundId = inboundIdOf(sent);
      return inboundId === undefined ? [] : [{ sent, inboundId, phone: source.phones[sent.index]! }];
    });
    await waitFor(
      () => accepted.every(({ phone }) => arrivals.first(phone) !== undefined),
      () => arrivals.sent.size,
      STALL_MS,
      REPLIES_CAP_MS,
    );
    const cpu = meter.between(start, meter.snapshot());
    await options.profile?.finish(accepted.length);
    const stagesRead = await stagePoll.stop();

    const refused: Record<string, number> = {};
    for (const sent of run.sent) {
      if (inboundIdOf(sent) === undefined) refused[sent.status] = (refused[sent.status] ?? 0) + 1;
    }
    if (run.errors > 0) refused.error = run.errors;
    const answered = accepted.flatMap((inbound) => {
      const reply = arrivals.first(inbound.phone);
      return reply === undefined ? [] : [{ ...inbound, reply }];
    });
    if (answered.length < accepted.length) {
      log(
        `${accepted.length - answered.length} of ${accepted.length} inbound messages had no bot reply reported sent`,
      );
    }
    const lastDue = run.sent.reduce((last, sent) => Math.max(last, sent.dueAt), -Infinity);
    const lastReply = answered.reduce((last, { reply }) => Math.max(last, reply.at), -Infinity);

    const legsMs = await messageTimes(
      system,
      answered.flatMap(({ inboundId, reply }) => [inboundId, reply.messageId]),
    )
      .then((times) => {
        const leg = (
          map: Map<string, number>,
          key: (item: (typeof answered)[number]) => string,
        ): LatencySummary =>
          latencySummary(
            answered.flatMap((item) => {
              const at = map.get(key(item));
              return at === undefined ? [] : [at - item.sent.dueAt];
            }),
          );
        return {
          inboundRecorded: leg(times.created, (item) => item.inboundId),
          replySent: leg(times.sent, (item) => item.reply.messageId),
        };
      })
      .catch((error: unknown) => {
        log(`the trip's legs could not be read: ${String(error)}`);
        return null;
      });
    const stages =
      stagesRead && stagePoll.samples.length >= 2
        ? stagesOf(
            stagePoll.samples,
            answered.map(({ reply }) => reply.at),
            accepted.length,
            lastDue,
          )
        : null;
    const conversations = await withDatabase(system, async (db) =>
      Object.fromEntries(
        (
          await db.query<{ status: string; n: string }>(
            `SELECT status, count(*) AS n FROM "${system.schema('automations')}".bot_conversations
              WHERE bot_id = ANY ($1::bigint[]) GROUP BY status`,
            [[...botIds]],
          )
        ).rows.map((row) => [row.status, Number(row.n)]),
      ),
    ).catch((error: unknown) => {
      log(`the conversations could not be counted: ${String(error)}`);
      return null;
    });

    return {
      rate: options.rate,
      seconds: options.seconds,
      workspaces: workspaceCount,
      requests: run.sent.length + run.errors,
      accepted: accepted.length,
      refused,
      replies: answered.length,
      namingBot: answered.filter(
        ({ reply }) =>
          botIds.has(Number(reply.botId)) &&
          reply.conversationId !== undefined &&
          reply.conversationId !== null,
      ).length,
      secondMessages: accepted.filter(({ phone }) => (arrivals.sent.get(phone)?.length ?? 0) >= 2).length,
      replyLatencyMs: latencyWithP95(answered.map(({ sent, reply }) => reply.at - sent.dueAt)),
      answerMs: latencySummary(accepted.map(({ sent }) => sent.answeredAt - sent.dueAt)),
      legsMs,
      stages,
      drainSeconds: answered.length > 0 ? Math.round((lastReply - lastDue) / 100) / 10 : 0,
      conversations,
      cpu,
    };
  } finally {
    unwatch();
  }
}
