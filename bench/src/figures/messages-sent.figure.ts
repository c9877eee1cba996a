import { Client } from 'pg';

import type { RequestSource } from '../load/closed-loop.load';
import { runOpenLoop, type Sent } from '../load/open-loop.load';
import type { BenchSystem, Tenant } from '../support/bench-system';
import type { CpuMeter, CpuUsage } from '../support/cpu-meter';
import type { HttpsReceiver } from '../support/https.receiver';
import { latencySummary, type LatencySummary } from '../support/percentiles';

export interface MessagesSent {
  /** The rate the messages were asked for at (open loop), and for how long. */
  rate: number;
  seconds: number;
  /** Workspaces (business plan, one key each) and the contacts they hold. */
  workspaces: number;
  contacts: number;
  requests: number;
  /** Answered 202 with a message id. */
  accepted: number;
  /** Every other answer, by status (`error` for a request that got none). */
  refused: Record<string, number>;
  /** Accepted messages whose message.sent / message.delivered webhook came. */
  sentWebhooks: number;
  deliveredWebhooks: number;
  /** Messages whose webhooks came out of order (message.delivered before message.sent). */
  outOfOrder: number;
  /** Delivered messages per second, from the first request due to the last message.delivered webhook. */
  perSecond: number;
  /** Request due → its message.sent webhook received. */
  sentLatencyMs: LatencySummary;
  /** Request due → its message.delivered webhook received (includes the sandbox's status delay). */
  deliveredLatencyMs: LatencySummary;
  /** Request due → 202. */
  answerMs: LatencySummary;
  cpu: CpuUsage;
}

export interface MessagesSentOptions {
  rate: number;
  seconds: number;
  contactsPerWorkspace: number;
}

/** Each key allows 120 requests a minute (specification, Limits): a few go to setting up, the rest to messages. */
const MESSAGES_PER_KEY = 100;
const SETUP_CONCURRENCY = 16;
/** The figure's webhook endpoints are under this path of the receiver. */
const HOOKS_PATH = '/messages/';
const READY_TIMEOUT_MS = 90_000;
/** After the last request, how long the webhooks may stop coming before the figure gives up on the rest. */
const STALL_MS = 15_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A workspace ready to send: its key, its sandbox SMS channel and template, its contacts. */
export interface Sender {
  tenant: Tenant;
  channelId: number;
  templateId: number;
  contactIds: number[];
}

/** When each message's webhooks came (performance.now()). */
class Arrivals {
  readonly sent = new Map<string, number>();
  readonly delivered = new Map<string, number>();
  outOfOrder = 0;

  take(body: string, at: number): void {
    const envelope = JSON.parse(body) as { type?: string; data?: { id?: unknown } };
    const id = envelope.data?.id;
    if (typeof id !== 'string') return;
    if (envelope.type === 'message.sent') this.sent.set(id, at);
    if (envelope.type === 'message.delivered') {
      if (!this.sent.has(id)) this.outOfOrder += 1;
      this.delivered.set(id, at);
    }
  }
}

async function inBatches<T, R>(items: T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const done: R[] = [];
  for (let start = 0; start < items.length; start += size) {
    done.push(...(await Promise.all(items.slice(start, start + size).map(work))));
  }
  return done;
}

/**
 * Phones whose sandbox outcome is "sent, then delivered" (extensions §9.5: the last four digits are
 * none of 0001–0005 and 0009).
 */
function phoneOf(index: number): string {
  return `+1628555${String(1000 + index).padStart(4, '0')}`;
}

/** A workspace's endpoint (message.sent and message.delivered to the receiver), channel, template, contacts. */
async function setUp(
  system: BenchSystem,
  receiver: HttpsReceiver,
  tenant: Tenant,
  contacts: number,
): Promise<Sender> {
  await system.create(tenant, '/api/v1/webhook-endpoints', {
    url: receiver.url(`${HOOKS_PATH}${tenant.workspaceId}`),
    event_types: ['message.sent', 'message.delivered'],
  });
  const channel = await system.create<{ id: number }>(tenant, '/api/v1/channels', {
    type: 'sms',
    name: 'bench sandbox',
    provider: 'sandbox',
  });
  const template = await system.create<{ id: number }>(tenant, '/api/v1/templates', {
    name: 'bench code',
    channel: 'sms',
    body: 'Hi {{ contact.name }}, your code is {{ vars.code }}',
  });
  const batch = await system.create<{ results: Array<{ status: number; contact?: { id: number } }> }>(
    tenant,
    '/api/v1/contacts/batch',
    {
      contacts: Array.from({ length: contacts }, (_, index) => ({
        name: `Bench ${index}`,
        phone: phoneOf(index),
      })),
    },
    200,
  );
  const contactIds = batch.results.flatMap((result) => (result.contact ? [result.contact.id] : []));
  if (contactIds.length !== contacts) {
    throw new Error(`contacts batch made ${contactIds.length} of ${contacts} contacts`);
  }
  return { tenant, channelId: channel.id, templateId: template.id, contactIds };
}

/** The sender's `index`th message: to the next of its contacts, through its sandbox channel. */
function message(sender: Sender, index: number): Record<string, unknown> {
  return {
    contact_id: sender.contactIds[index % sender.contactIds.length],
    route: [{ channel_id: sender.channelId, template_id: sender.templateId }],
    variables: { code: String(100000 + (index % 900000)) },
  };
}

/** `POST /api/v1/messages` round-robin over the workspaces' keys, each to the next of its contacts. */
function messageSource(senders: Sender[]): RequestSource {
  let issued = 0;
  return {
    path: '/api/v1/messages',
    next() {
      const index = issued++;
      const sender = senders[index % senders.length]!;
      return {
        headers: {
          authorization: `Bearer ${sender.tenant.key}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(message(sender, Math.floor(index / senders.length))),
      };
    },
  };
}

function messageIdOf(sent: Sent): string | undefined {
  if (sent.status !== 202) return undefined;
  try {
    const id = (JSON.parse(sent.body) as { data?: { id?: unknown } }).data?.id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Until the messaging service holds every contact made (its projection of the contacts topic): a
 * message to a contact it has not seen yet would measure the projection's lag, not the send.
 */
export async function waitContactsProjected(
  system: BenchSystem,
  senders: Sender[],
  log: (line: string) => void,
): Promise<void> {
  const expected = senders.reduce((sum, sender) => sum + sender.contactIds.length, 0);
  const workspaceIds = senders.map((sender) => sender.tenant.workspaceId);
  const client = new Client({ connectionString: system.stack.databaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    const table = `"${system.schema('messaging')}".contacts`;
    for (;;) {
      const counted = await client
        .query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE workspace_id = ANY ($1::bigint[])`, [
          workspaceIds,
        ])
        .then((result) => Number(result.rows[0]!.n))
        .catch((error: unknown) => error as Error);
      if (counted instanceof Error) {
        log(`cannot count messaging's contacts (${counted.message}); relying on the probe messages`);
        return;
      }
      if (counted >= expected) return;
      if (Date.now() > deadline) {
        throw new Error(
          `messaging holds ${counted} of ${expected} contacts after ${READY_TIMEOUT_MS / 1000} s`,
        );
      }
      await sleep(250);
    }
  } finally {
    await client.end();
  }
}

/** Waits until `done` holds, or nothing has changed in `progress` for `stallMs`, or `capMs` passed. */
async function waitFor(
  done: () => boolean,
  progress: () => number,
  stallMs: number,
  capMs: number,
): Promise<void> {
  const until = Date.now() + capMs;
  let last = progress();
  let lastChange = Date.now();
  while (!done() && Date.now() < until && Date.now() - lastChange < stallMs) {
    await sleep(50);
    if (progress() !== last) {
      last = progress();
      lastChange = Date.now();
    }
  }
}

/**
 * Messages sent end to end through sandbox channels: workspaces on the business plan, each with a key,
 * an endpoint for message.sent and message.delivered on the bench's HTTPS receiver, a sandbox SMS
 * channel, a template and contacts with phones; then `POST /api/v1/messages` at `rate` (open loop) for
 * `seconds`. The gateway records the request, messaging decides it, its send worker "sends" it through
 * the sandbox, the sandbox reports it delivered after SANDBOX_STATUS_DELAY_MS, and webhook-dispatch
 * delivers both webhooks. Measured on this process's clock: delivered messages per second from the
 * first request due to the last message.delivered webhook, and each request's time to its
 * message.sent webhook.
 */
export async function measureMessagesSent(
  system: BenchSystem,
  receiver: HttpsReceiver,
  options: MessagesSentOptions,
  meter: CpuMeter,
  log: (line: string) => void,
  /** Around the measured part (the open loop and the webhooks it makes): the profiles, with --profile. */
  hooks: { started(): void; finished(accepted: number): Promise<void> },
): Promise<MessagesSent> {
  const total = Math.round(options.rate * options.seconds);
  const workspaces = Math.ceil(total / MESSAGES_PER_KEY);
  if (!system.isRunning('messaging')) {
    log('starting messaging');
    await system.start('messaging');
  }
  log(`making ${workspaces} workspaces with an endpoint, a sandbox SMS channel, a template and contacts`);
  const tenants = await system.tenants(workspaces, 'business');
  const senders = await inBatches(tenants, SETUP_CONCURRENCY, (tenant) =>
    setUp(system, receiver, tenant, options.contactsPerWorkspace),
  );
  await waitContactsProjected(system, senders, log);

  const arrivals = new Arrivals();
  const unwatch = receiver.watch(HOOKS_PATH, (body, at) => arrivals.take(body, at));
  try {
    // One message per workspace through the whole path first: every part is warm and works.
    const probes = await inBatches(senders, SETUP_CONCURRENCY, async (sender) => {
      const probe = await system.create<{ id: string }>(
        sender.tenant,
        '/api/v1/messages',
        message(sender, 0),
        202,
      );
      return probe.id;
    });
    await waitFor(
      () => probes.every((id) => arrivals.delivered.has(id)),
      () => arrivals.delivered.size,
      STALL_MS,
      READY_TIMEOUT_MS,
    );
    const probed = probes.filter((id) => arrivals.delivered.has(id)).length;
    if (probed < probes.length) {
      throw new Error(`only ${probed} of ${probes.length} probe messages were reported delivered`);
    }

    log(`open loop: POST /api/v1/messages at ${options.rate}/s for ${options.seconds} s`);
    hooks.started();
    const start = meter.snapshot();
    const run = await runOpenLoop(system.url, messageSource(senders), options.rate, options.seconds);
    const accepted = run.sent.flatMap((sent) => {
      const id = messageIdOf(sent);
      return id === undefined ? [] : [{ sent, id }];
    });
    await waitFor(
      () => accepted.every(({ id }) => arrivals.delivered.has(id)),
      () => arrivals.delivered.size + arrivals.sent.size,
      STALL_MS,
      120_000,
    );
    const cpu = meter.between(start, meter.snapshot());
    await hooks.finished(accepted.length);

    const refused: Record<string, number> = {};
    for (const sent of run.sent) {
      if (messageIdOf(sent) === undefined) refused[sent.status] = (refused[sent.status] ?? 0) + 1;
    }
    if (run.errors > 0) refused.error = run.errors;
    const firstDue = run.sent.reduce((first, sent) => Math.min(first, sent.dueAt), Infinity);
    const delivered = accepted.filter(({ id }) => arrivals.delivered.has(id));
    const lastDelivered = delivered.reduce(
      (last, { id }) => Math.max(last, arrivals.delivered.get(id)!),
      -Infinity,
    );
    const span = (lastDelivered - firstDue) / 1000;
    const latency = (stage: Map<string, number>): number[] =>
      accepted.flatMap(({ sent, id }) => (stage.has(id) ? [stage.get(id)! - sent.dueAt] : []));
    return {
      rate: options.rate,
      seconds: options.seconds,
      workspaces,
      contacts: workspaces * options.contactsPerWorkspace,
      requests: run.sent.length + run.errors,
      accepted: accepted.length,
      refused,
      sentWebhooks: accepted.filter(({ id }) => arrivals.sent.has(id)).length,
      deliveredWebhooks: delivered.length,
      outOfOrder: arrivals.outOfOrder,
      perSecond: delivered.length > 0 && span > 0 ? Math.round(delivered.length / span) : 0,
      sentLatencyMs: latencySummary(latency(arrivals.sent)),
      deliveredLatencyMs: latencySummary(latency(arrivals.delivered)),
      answerMs: latencySummary(accepted.map(({ sent }) => sent.answeredAt - sent.dueAt)),
      cpu,
    };
  } finally {
    unwatch();
  }
}
