import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { eventually } from '@cms/testing';
import { Client } from 'pg';

import { PrivateStack, System, UndocumentedAnswer, type Answer, type ServiceName } from '../src';

/**
 * Faults under a steady stream of writes, on a Kafka broker and a Postgres of the suite's own: each
 * service is killed with SIGKILL and started again (as an orchestrator would), then the broker and
 * then Postgres are restarted under the running services. Afterwards every write that was answered
 * 2xx is in the services' tables exactly once, and every service came back to ready by itself.
 *
 * Postgres is stopped in immediate mode, a crash: the throwaway cluster commits asynchronously, so it
 * may come back without its last commits, which the services must then apply again from the log.
 * The broker gets a clean stop; FAULT_KILL=1 crashes it too, and FAULT_DOWN_MS (3000) keeps every
 * fault longer, for hunting by hand. What each client saw is written to
 * .local/logs/e2e/<namespace>-faults.json, next to the services' logs.
 */

const SERVICES: ServiceName[] = ['gateway', 'contacts', 'webhook-dispatch'];
const WORKSPACES = 3;
const CLIENTS_PER_WORKSPACE = 2;
/** A write with no 2xx answer after this long is given up; the suite then fails on it. */
const OP_DEADLINE_MS = 60000;
/** One HTTP call at most; a call that hangs longer counts as no answer and is retried. */
const CALL_TIMEOUT_MS = 20000;
/** How long each fault lasts: a killed service stays down, the broker and Postgres stay stopped. */
const DOWN_MS = Number(process.env.FAULT_DOWN_MS ?? 3000);
const CRASH_BROKER = process.env.FAULT_KILL === '1';
/** Steady traffic between two faults. */
const BETWEEN_FAULTS_MS = 2500;
const KINDS = ['event', 'update', 'event', 'upsert', 'event', 'attach'] as const;
type Kind = (typeof KINDS)[number];

type Resource = { data: Record<string, unknown> & { id: number } };

interface Tenant {
  workspaceId: number;
  key: string;
  endpointId: string;
  tagIds: number[];
}

interface Op {
  kind: Kind;
  client: number;
  seq: number;
  startedAt: number;
  /**
   * Every try in order, when it began and its answer: an HTTP status, 'network' when none came, or what
   * an answer had that the OpenAPI document does not describe.
   */
  attempts: Array<{ at: number; status: number | 'network'; undocumented?: string[] }>;
  /** The 2xx answer, once there is one. */
  answer?: Answer<Resource>;
  method: string;
  path: string;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

interface ClientState {
  id: number;
  tenant: Tenant;
  phone: string;
  contactId: number;
  updates: number;
  ops: Op[];
}

interface Recovery {
  fault: string;
  /** Milliseconds from the end of the fault until every service answered /ready 200; undefined: never. */
  readyAfterMs: number | undefined;
  /** The process ids of the services before the fault and once ready again. */
  pidsBefore: Array<number | undefined>;
  pidsAfter: Array<number | undefined>;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const is2xx = (status: number) => status >= 200 && status < 300;

let stack: PrivateStack | undefined;
let system: System | undefined;
let db: Client | undefined;
const clients: ClientState[] = [];
const recoveries: Recovery[] = [];
/** What the fault schedule did when, for the summary. */
const timeline: Array<{ at: string; what: string }> = [];
/** While the gateway process was down: the only time a call may go unanswered. */
const gatewayDown = { from: 0, to: 0 };
/** When the last fault was over and every service was ready again. */
let recoveredAt = 0;

function mark(what: string): void {
  timeline.push({ at: new Date().toISOString(), what });
}

function sys(): System {
  if (!system) throw new Error('the system did not start');
  return system;
}

function table(service: ServiceName, name: string): string {
  return `"${sys().schema(service)}"."${name}"`;
}

async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await db!.query(sql, params)).rows as T[];
}

/** Every service answers /ready with 200 now. */
async function allReady(): Promise<boolean> {
  const answers = await Promise.all(
    SERVICES.map((name) =>
      fetch(`${sys().baseUrl(name)}/ready`, { signal: AbortSignal.timeout(3000) }).then(
        (response) => response.status,
        () => 0,
      ),
    ),
  );
  return answers.every((status) => status === 200);
}

/** Waits, without touching any service, until all of them are ready again; records how long it took. */
async function recovery(fault: string, pidsBefore: Array<number | undefined>): Promise<void> {
  const from = Date.now();
  const readyAfterMs = await eventually(`every service ready after ${fault}`, allReady, 90000, 250).then(
    () => Date.now() - from,
    () => undefined,
  );
  recoveries.push({ fault, readyAfterMs, pidsBefore, pidsAfter: SERVICES.map((name) => sys().pid(name)) });
}

function nextOp(client: ClientState, seq: number): Op {
  const kind = KINDS[seq % KINDS.length]!;
  const base = { kind, client: client.id, seq, startedAt: Date.now(), attempts: [] };
  const tag = `c${client.id}-${seq}`;
  switch (kind) {
    case 'event':
      return {
        ...base,
        method: 'POST',
        path: '/api/v1/events',
        body: { name: 'fault.tick', contact: { phone: client.phone }, data: { client: client.id, seq } },
        headers: { 'idempotency-key': `fault-${tag}` },
      };
    case 'update':
      client.updates += 1;
      return {
        ...base,
        method: 'PUT',
        path: `/api/v1/contacts/${client.contactId}`,
        // Every update flips SMS consent: applied twice, it would leave two consent changes.
        body: { data: { [`u${seq}`]: seq }, marketing_consent: { sms: client.updates % 2 === 1 } },
      };
    case 'upsert':
      return {
        ...base,
        method: 'POST',
        path: '/api/v1/contacts/upsert',
        body: { name: `Upsert ${tag}`, phone: `+1415${600 + client.id}${String(seq).padStart(4, '0')}` },
      };
    case 'attach':
      return {
        ...base,
        method: 'POST',
        path: '/api/v1/tags/attach',
        body: {
          contact_id: client.contactId,
          tag_ids: [client.tenant.tagIds[seq % client.tenant.tagIds.length]!],
        },
      };
  }
}

/** Sends the write until it gets a 2xx (the same Idempotency-Key, the same body), as a client would. */
async function perform(client: ClientState, op: Op): Promise<void> {
  client.ops.push(op);
  let wait = 200;
  for (;;) {
    const at = Date.now();
    try {
      const answer = await sys().call<Resource>(op.method, op.path, {
        key: client.tenant.key,
        body: op.body,
        ...(op.headers ? { headers: op.headers } : {}),
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
      op.attempts.push({ at, status: answer.status });
      if (is2xx(answer.status)) {
        op.answer = answer;
        return;
      }
      // Any other 4xx refuses the write itself: sending it again cannot help.
      if (answer.status >= 400 && answer.status < 500 && answer.status !== 429) return;
    } catch (error) {
      if (error instanceof UndocumentedAnswer) {
        op.attempts.push({ at, status: 'network', undocumented: error.problems });
        return;
      }
      op.attempts.push({ at, status: 'network' });
    }
    if (Date.now() - op.startedAt > OP_DEADLINE_MS) return;
    await delay(wait);
    wait = Math.min(wait * 2, 2000);
  }
}

async function writer(client: ClientState, running: () => boolean): Promise<void> {
  for (let seq = 1; running(); seq += 1) {
    await perform(client, nextOp(client, seq));
    await delay(50);
  }
}

/** Kills each service in turn and starts it again, then restarts the broker, then Postgres. */
async function faults(): Promise<void> {
  const pids = () => SERVICES.map((name) => sys().pid(name));
  await delay(BETWEEN_FAULTS_MS);
  for (const name of SERVICES) {
    mark(`kill -9 ${name}`);
    if (name === 'gateway') gatewayDown.from = Date.now();
    await sys().kill(name);
    await delay(DOWN_MS);
    mark(`start ${name}`);
    await sys().restart(name);
    if (name === 'gateway') gatewayDown.to = Date.now();
    mark(`${name} ready`);
    await delay(BETWEEN_FAULTS_MS);
  }
  const parts = [
    ['the broker restart', 'kafka'],
    ['the Postgres restart', 'postgres'],
  ] as const;
  for (const [fault, part] of parts) {
    const before = pids();
    mark(`stop ${part}`);
    await stack!.stop(part, { kill: part === 'postgres' || CRASH_BROKER });
    await delay(DOWN_MS);
    mark(`start ${part}`);
    await stack!.start(part);
    mark(`${part} up`);
    await recovery(fault, before);
    mark(`services ready after ${fault}`);
    await delay(BETWEEN_FAULTS_MS);
  }
  recoveredAt = Date.now();
  await delay(BETWEEN_FAULTS_MS);
  // A client's write begun before the recovery may still be retrying on a busy machine: the stream goes
  // on until every client has had a write begun after it answered (a minute at most; the test after
  // names a client that had none).
  const answeredSince = (client: ClientState): boolean =>
    client.ops.some((op) => op.startedAt >= recoveredAt && op.answer !== undefined);
  for (const until = Date.now() + 60_000; Date.now() < until && !clients.every(answeredSince);) {
    await delay(200);
  }
}

async function setUpClients(): Promise<void> {
  for (let w = 0; w < WORKSPACES; w += 1) {
    const { workspaceId, key } = await sys().tenant('business');
    const endpoint = await sys().call<{ data: { id: string } }>('POST', '/api/v1/webhook-endpoints', {
      key,
      body: { url: 'https://hooks.example.invalid/cms', event_types: ['consent.granted', 'consent.revoked'] },
    });
    expect(endpoint.status).toBe(201);
    const tagIds: number[] = [];
    for (const name of ['vip', 'newsletter', 'churn-risk']) {
      const tag = await sys().call<Resource>('POST', '/api/v1/tags', { key, body: { name } });
      expect(tag.status).toBe(201);
      tagIds.push(tag.body.data.id);
    }
    const tenant = { workspaceId, key, endpointId: endpoint.body.data.id, tagIds };
    for (let c = 0; c < CLIENTS_PER_WORKSPACE; c += 1) {
      const id = clients.length;
      const phone = `+1415550${String(id).padStart(4, '0')}`;
      const contact = await sys().call<Resource>('POST', '/api/v1/contacts/upsert', {
        key,
        body: { name: `Client ${id}`, phone },
      });
      expect(contact.status).toBe(201);
      clients.push({ id, tenant, phone, contactId: contact.body.data.id, updates: 0, ops: [] });
    }
  }
}

beforeAll(
  async () => {
    mark('start the stack');
    stack = await PrivateStack.start();
    mark('start the services');
    system = await System.start(
      SERVICES,
      {
        OUTCOME_TIMEOUT_MS: '5000',
        // A process killed with SIGKILL holds its partitions until its session expires: keep that short.
        KAFKA_SESSION_TIMEOUT_MS: '8000',
        RATE_LIMIT_WINDOW_SECONDS: '1',
        WEBHOOK_TIMEOUT_MS: '2000',
      },
      stack.stack,
    );
    mark('set up the clients');
    await setUpClients();
    mark('stream and faults');
    let running = true;
    const writers = clients.map((client) => writer(client, () => running));
    try {
      await faults();
    } finally {
      running = false;
      await Promise.all(writers);
      mark('stream over');
    }
    db = new Client({ connectionString: stack.stack.databaseUrl });
    await db.connect();
  },
  360000 + 6 * DOWN_MS,
);

/** What every client saw and how long each recovery took, next to the services' logs. */
function writeSummary(): void {
  if (!system) return;
  const dir = join(__dirname, '..', '..', '..', '.local', 'logs', 'e2e');
  mkdirSync(dir, { recursive: true });
  const summary = {
    timeline,
    recoveries,
    ops: clients.flatMap((client) =>
      client.ops.map(({ kind, client: id, seq, startedAt, attempts, answer }) => ({
        kind,
        client: id,
        seq,
        startedAt: new Date(startedAt).toISOString(),
        attempts: attempts.map(({ at, status }) => `${new Date(at).toISOString().slice(11)} ${status}`),
        answered: answer?.body.data.id,
      })),
    ),
  };
  writeFileSync(join(dir, `${system.namespace}-faults.json`), JSON.stringify(summary, null, 1));
}

afterAll(async () => {
  await db?.end().catch(() => undefined);
  try {
    mark('stop the services');
    await system?.stop().catch(() => undefined);
  } finally {
    mark('stop the stack');
    await stack?.down();
    mark('done');
    writeSummary();
  }
}, 120000);

function ops(kind?: Kind): Op[] {
  return clients.flatMap((client) => client.ops).filter((op) => kind === undefined || op.kind === kind);
}

function answered(kind: Kind): Array<Op & { answer: Answer<Resource> }> {
  return ops(kind).filter((op): op is Op & { answer: Answer<Resource> } => op.answer !== undefined);
}

function clientOf(op: Op): ClientState {
  return clients[op.client]!;
}

describe('under kill -9 of every service and restarts of the broker and Postgres', () => {
  it('brings every service back to ready by itself, in the same process, after the broker and Postgres restarts', () => {
    expect(recoveries.map(({ fault }) => fault)).toEqual(['the broker restart', 'the Postgres restart']);
    for (const { fault, readyAfterMs, pidsBefore, pidsAfter } of recoveries) {
      expect([fault, readyAfterMs !== undefined]).toEqual([fault, true]);
      expect([fault, pidsAfter]).toEqual([fault, pidsBefore]);
      expect(pidsAfter.every((pid) => pid !== undefined)).toBe(true);
    }
  });

  it('answers every write with a 2xx in the end, and keeps answering after the last fault', () => {
    const unanswered = ops().filter((op) => op.answer === undefined);
    expect(
      unanswered.map(({ kind, client, seq, attempts }) => ({
        kind,
        client,
        seq,
        answers: attempts.map(({ status }) => status),
      })),
    ).toEqual([]);
    for (const client of clients) {
      const after = client.ops.filter((op) => op.startedAt >= recoveredAt && op.answer !== undefined);
      expect([client.id, after.length > 0]).toEqual([client.id, true]);
    }
    // Nothing refused a valid write: the answers before a 2xx only say "not now".
    const refusals = ops().flatMap((op) =>
      op.attempts.filter(
        ({ status }) => status !== 'network' && !is2xx(status) && ![429, 503].includes(status),
      ),
    );
    expect(refusals).toEqual([]);
  });

  it('answers every call as the OpenAPI document describes it, faults included', () => {
    const undocumented = ops().flatMap((op) =>
      op.attempts.flatMap(({ at, undocumented: problems }) =>
        problems ? [{ kind: op.kind, at: new Date(at).toISOString(), problems }] : [],
      ),
    );
    expect(undocumented).toEqual([]);
  });

  it('answers every call within the client timeout whenever the gateway process is up', () => {
    // A call begun up to one timeout before the kill may have been cut by it.
    const cut = (at: number) => at >= gatewayDown.from - CALL_TIMEOUT_MS && at <= gatewayDown.to;
    const unanswered = ops().flatMap((op) =>
      op.attempts
        .filter(({ at, status, undocumented }) => status === 'network' && !undocumented && !cut(at))
        .map(({ at }) => ({ kind: op.kind, client: op.client, seq: op.seq, at: new Date(at).toISOString() })),
    );
    expect(gatewayDown.to).toBeGreaterThan(gatewayDown.from);
    expect(unanswered).toEqual([]);
  });

  it('records every answered event exactly once, under the id it was answered with', async () => {
    const rows = await query<{ id: number; workspace_id: number; idempotency_key: string | null }>(
      `SELECT id::float8 AS id, workspace_id::float8 AS workspace_id, idempotency_key FROM ${table('contacts', 'events')}`,
    );
    const events = answered('event');
    expect(events.length).toBeGreaterThan(0);
    for (const op of events) {
      const key = op.headers!['idempotency-key'];
      const stored = rows.filter(
        (row) => row.idempotency_key === key && row.workspace_id === clientOf(op).tenant.workspaceId,
      );
      expect([key, stored.map((row) => row.id)]).toEqual([key, [op.answer.body.data.id]]);
    }
    const sent = new Set(ops('event').map((op) => op.headers!['idempotency-key']));
    expect(rows.filter((row) => !sent.has(row.idempotency_key ?? ''))).toEqual([]);

    for (const tenant of new Set(clients.map((client) => client.tenant))) {
      const listed: number[] = [];
      for (let page = 1; ; page += 1) {
        const answer = await sys().call<{ data: Array<{ id: number }>; meta: { last_page: number } }>(
          'GET',
          `/api/v1/events?per_page=100&page=${page}`,
          { key: tenant.key },
        );
        expect(answer.status).toBe(200);
        listed.push(...answer.body.data.map((event) => event.id));
        if (page >= answer.body.meta.last_page) break;
      }
      const expected = events
        .filter((op) => clientOf(op).tenant === tenant)
        .map((op) => op.answer.body.data.id)
        .sort((a, b) => a - b);
      expect([tenant.workspaceId, listed.sort((a, b) => a - b)]).toEqual([tenant.workspaceId, expected]);
    }
  });

  it('keeps one contact per phone, under the id its upsert was answered with', async () => {
    const rows = await query<{ id: number; workspace_id: number; phone: string }>(
      `SELECT id::float8 AS id, workspace_id::float8 AS workspace_id, phone FROM ${table('contacts', 'contacts')}`,
    );
    const byPhone = new Map<string, number[]>();
    for (const row of rows) {
      const key = `${row.workspace_id}/${row.phone}`;
      byPhone.set(key, [...(byPhone.get(key) ?? []), row.id]);
    }
    expect([...byPhone].filter(([, ids]) => ids.length > 1)).toEqual([]);
    const upserts = answered('upsert');
    expect(upserts.length).toBeGreaterThan(0);
    for (const op of upserts) {
      const key = `${clientOf(op).tenant.workspaceId}/${String(op.body.phone)}`;
      expect([key, byPhone.get(key)]).toEqual([key, [op.answer.body.data.id]]);
    }
    for (const client of clients) {
      const key = `${client.tenant.workspaceId}/${client.phone}`;
      expect([key, byPhone.get(key)]).toEqual([key, [client.contactId]]);
    }
    for (const tenant of new Set(clients.map((client) => client.tenant))) {
      const stored = rows.filter((row) => row.workspace_id === tenant.workspaceId).length;
      const expected = CLIENTS_PER_WORKSPACE + upserts.filter((op) => clientOf(op).tenant === tenant).length;
      const answer = await sys().call<{ meta: { total: number } }>('GET', '/api/v1/contacts?per_page=1', {
        key: tenant.key,
      });
      expect([tenant.workspaceId, stored, answer.body.meta.total]).toEqual([
        tenant.workspaceId,
        expected,
        expected,
      ]);
    }
  });

  it('applies every answered update and tag assignment once: each value present, one consent change per flip', async () => {
    // contact_id is bigint: pg hands it over as text.
    const changes = await query<{ contact_id: string; count: number }>(
      `SELECT contact_id, count(*)::int AS count FROM ${table('contacts', 'consent_changes')}
        WHERE channel = 'sms' GROUP BY contact_id`,
    );
    for (const client of clients) {
      const updates = client.ops.filter((op) => op.kind === 'update');
      const attached = client.ops.filter((op) => op.kind === 'attach' && op.answer !== undefined);
      const answer = await sys().call<{
        data: {
          data: Record<string, unknown>;
          tags: Array<{ id: number }>;
          marketing_consent: { sms: boolean };
        };
      }>('GET', `/api/v1/contacts/${client.contactId}`, { key: client.tenant.key });
      expect(answer.status).toBe(200);
      const contact = answer.body.data;
      for (const op of updates.filter((update) => update.answer !== undefined)) {
        const [[field, value]] = Object.entries(op.body.data as Record<string, number>) as [[string, number]];
        expect([client.id, field, contact.data[field]]).toEqual([client.id, field, value]);
      }
      const tagIds = new Set(contact.tags.map((tag) => tag.id));
      for (const op of attached) {
        const [tagId] = op.body.tag_ids as number[];
        expect([client.id, tagId, tagIds.has(tagId!)]).toEqual([client.id, tagId, true]);
      }
      expect(updates.length).toBeGreaterThan(0);
      expect(contact.marketing_consent.sms).toBe(updates.length % 2 === 1);
      const flips = changes.find((row) => Number(row.contact_id) === client.contactId)?.count ?? 0;
      expect([client.id, flips]).toEqual([client.id, updates.length]);
    }
  });

  it('turns every consent flip into exactly one webhook delivery', async () => {
    for (const tenant of new Set(clients.map((client) => client.tenant))) {
      const flips = ops('update').filter((op) => clientOf(op).tenant === tenant).length;
      const count = async () =>
        (
          await query<{ count: number }>(
            `SELECT count(*)::int AS count FROM ${table('webhook-dispatch', 'webhook_deliveries')} WHERE endpoint_id = $1`,
            [tenant.endpointId],
          )
        )[0]!.count;
      await eventually(
        `${flips} deliveries for workspace ${tenant.workspaceId}`,
        async () => (await count()) >= flips,
        60000,
        250,
      );
      expect([tenant.workspaceId, await count()]).toEqual([tenant.workspaceId, flips]);
    }
  });

  it('leaves every outbox drained and nothing dead-lettered', async () => {
    for (const name of SERVICES) {
      await eventually(
        `the ${name} outbox drained`,
        async () =>
          (await query<{ count: number }>(`SELECT count(*)::int AS count FROM ${table(name, 'outbox')}`))[0]!
            .count === 0,
        60000,
        250,
      );
      const dead = await query<{ topic: string; reason: string; detail: string }>(
        `SELECT topic, reason, detail FROM ${table(name, 'dead_letters')}`,
      );
      expect([name, dead]).toEqual([name, []]);
    }
  });
});
