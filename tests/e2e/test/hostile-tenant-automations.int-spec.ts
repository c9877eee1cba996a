import { CONTACT_FACT_TYPES, EVENT_FACT_TYPES, type EventRecordedV1 } from '@cms/contracts';
import { eventually } from '@cms/testing';
import { Client } from 'pg';

import { System } from '../src';
import {
  contactSnapshot,
  countOf,
  createAs,
  percentile,
  publishContactFacts,
  requestPartitionCount,
  requestPartitionOf,
  sandboxSmsAs,
} from '../src/hostile';

/**
 * Issue 28, item 6 (extensions §6): workspace A has thousands of runs whose timers all fall due in the
 * same second while workspace B, on another partition of the request topic, records events that each
 * start a one-step workflow. B's event → its message queued keeps a p99 close to the one it had with A
 * at rest just before (the absolute goal, a p99 under one second at full size, is the bench's), and
 * every one of A's timers is acted on.
 *
 * A's runs are set up through cms.contacts.v1 directly (a contact and an event each, as the contacts
 * service publishes them): the events API's per-workspace budget (1,200 a minute) would take minutes
 * to start them. Their timers are then moved to now in one statement, so they fall due together.
 */

const FLOOD = 5000;
/** A's events of the burst: a thousand a second for five seconds. */
const BURST = 5000;
const SAMPLES = 15;
const P99_FACTOR = 3;
/**
 * What B may wait behind at most while A's timers fire: A's transactions in hand at each hop (contacts,
 * automations, messaging) on a machine whose two cores A keeps busy. B waiting for A's flood to drain
 * instead (the isolation broken) is several times more.
 */
const P99_SLACK_MS = 1500;
const FIRST_ID = 800_000_000;

let system: System;
let db: Client;
let automations: string;
let messaging: string;
let a: { workspaceId: number; key: string };
let b: { workspaceId: number; key: string };

function call<T = unknown>(key: string, method: string, path: string, body?: unknown) {
  return system.call<T>(method, path, { key, ...(body === undefined ? {} : { body }) });
}

/**
 * A's contacts and events (named `name`) as the contacts service publishes them: `count` of them from
 * `first`, `perBatch` in one produce request, `gapMs` after each.
 */
function publishEvents(
  name: string,
  first: number,
  count: number,
  perBatch = 1000,
  gapMs = 0,
): Promise<void> {
  return publishContactFacts(system, a.workspaceId, { first, count, perBatch, gapMs }, (index, now) => {
    const contactId = FIRST_ID + index;
    const event: EventRecordedV1 = {
      event_id: FIRST_ID + index,
      name,
      contact_id: contactId,
      data: { n: index },
      occurred_at: now,
      received_at: now,
      idempotency_key: null,
    };
    const phone = `+1415${String(5_000_000 + index).padStart(7, '0')}`;
    return [
      {
        type: CONTACT_FACT_TYPES.created,
        subject: String(contactId),
        data: contactSnapshot(contactId, phone, now),
      },
      { type: EVENT_FACT_TYPES.recorded, subject: String(contactId), data: event },
    ];
  });
}

/** B records an event that starts its one-step workflow: the ms until that run's message is queued. */
async function bEventToQueued(seq: number): Promise<number> {
  const started = Date.now();
  const answer = await call<{ data: { contact_id: number } }>(b.key, 'POST', '/api/v1/events', {
    name: 'signup',
    contact: { phone: `+1415666${String(seq).padStart(4, '0')}`, name: 'Bea' },
  });
  expect(answer.status).toBe(202);
  const contactId = answer.body.data.contact_id;
  // Read from the services' tables: B's API budget is for its writes, not for a test's polling.
  const messageId = await eventually(
    `B's run ${seq}`,
    async () => {
      const runs = await db.query<{ history: Array<{ message_id: string | null }> }>(
        `SELECT history FROM ${automations}.workflow_runs WHERE contact_id = $1`,
        [contactId],
      );
      return runs.rows[0]?.history[0]?.message_id ?? undefined;
    },
    60_000,
    5,
  );
  await eventually(
    `B's message ${seq}`,
    async () =>
      (await countOf(db, `SELECT count(*)::int AS n FROM ${messaging}.messages WHERE id = $1`, [
        messageId,
      ])) === 1,
    60_000,
    5,
  );
  return Date.now() - started;
}

beforeAll(async () => {
  system = await System.start(['gateway', 'contacts', 'messaging', 'automations']);
  const partitions = await requestPartitionCount(system);
  a = await system.tenant('business');
  do b = await system.tenant('business');
  while (requestPartitionOf(b.workspaceId, partitions) === requestPartitionOf(a.workspaceId, partitions));
  db = new Client({ connectionString: system.stack.databaseUrl });
  await db.connect();
  automations = system.schema('automations');
  messaging = system.schema('messaging');
  const aTemplate = await sandboxSmsAs(system, a.key);
  const bTemplate = await sandboxSmsAs(system, b.key);
  await createAs(system, a.key, '/api/v1/workflows', {
    name: 'Flood',
    trigger: { event: 'flood' },
    steps: [
      { id: 'later', type: 'wait', duration: 'P1D' },
      { id: 'hello', type: 'send', route: [{ channel: 'sms', template_id: aTemplate }] },
    ],
  });
  // Twenty steps a run runs at once: nineteen branches on the event, then a message.
  await createAs(system, a.key, '/api/v1/workflows', {
    name: 'Burst',
    trigger: { event: 'burst' },
    steps: [
      ...Array.from({ length: 19 }, (_, index) => ({
        id: `b${index}`,
        type: 'branch',
        cases: [{ if: [{ field: 'event.data.n', operator: 'gte', value: 0 }], next: `b${index + 1}` }],
      })),
      { id: 'b19', type: 'send', route: [{ channel: 'sms', template_id: aTemplate }] },
    ],
  });
  await createAs(system, b.key, '/api/v1/workflows', {
    name: 'Welcome',
    trigger: { event: 'signup' },
    steps: [{ id: 'hello', type: 'send', route: [{ channel: 'sms', template_id: bTemplate }] }],
  });
  await publishEvents('flood', 0, FLOOD);
  await eventually(
    `A's ${FLOOD} runs waiting`,
    async () => (await countOf(db, `SELECT count(*)::int AS n FROM ${automations}.run_timers`)) === FLOOD,
    180_000,
    200,
  );
}, 300_000);

afterAll(async () => {
  await db?.end();
  await system?.stop();
});

describe(`workspace A's ${FLOOD} timers fall due in the same second while B's events start runs`, () => {
  const calm: number[] = [];
  const flooded: number[] = [];

  it("times B's event → message queued with A at rest", async () => {
    for (let seq = 0; seq < SAMPLES; seq += 1) calm.push(await bEventToQueued(seq));
  }, 120_000);

  it("keeps B's p99 close to its calm one, and far under the time A's flood takes, while A's timers fire", async () => {
    const completed = `SELECT count(*)::int AS n FROM ${automations}.workflow_runs WHERE workspace_id = $1 AND status = 'completed'`;
    // When A's flood has drained, watched on a connection of its own while B is timed.
    const watcher = new Client({ connectionString: system.stack.databaseUrl });
    await watcher.connect();
    const dueAt = Date.now();
    await db.query(`UPDATE ${automations}.run_timers SET due_at = now()`);
    let drainedAt: number | undefined;
    const watching = (async () => {
      while (drainedAt === undefined && Date.now() - dueAt < 300_000) {
        const rows = await watcher.query<{ n: number }>(completed, [a.workspaceId]);
        if (rows.rows[0]!.n === FLOOD) drainedAt = Date.now();
        else await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    try {
      // The timer worker finds them at its next look (a commit signal, or its safety poll at the latest).
      await eventually(
        "A's timers firing",
        async () => (await countOf(db, `SELECT count(*)::int AS n FROM ${automations}.run_timers`)) < FLOOD,
        30_000,
        20,
      );
      const before = await countOf(db, completed, [a.workspaceId]);
      for (let seq = 0; seq < SAMPLES; seq += 1) flooded.push(await bEventToQueued(1000 + seq));
      // B's events were timed while A's runs were being moved.
      expect(before).toBeLessThan(FLOOD);
      await watching;
    } finally {
      await watcher.end();
    }
    expect(drainedAt).toBeDefined();
    expect(await countOf(db, `SELECT count(*)::int AS n FROM ${automations}.run_timers`)).toBe(0);
    const drainMs = drainedAt! - dueAt;
    const calmP99 = percentile(calm, 0.99);
    const floodP99 = percentile(flooded, 0.99);
    // Within its calm p99 and the slack; or, on a machine busy enough to stretch everything, still far
    // under the time A's flood took to drain, which is what B waits when it waits behind A.
    const within = floodP99 <= P99_FACTOR * calmP99 + P99_SLACK_MS || floodP99 <= drainMs / 3;
    const report = `calm p99 ${calmP99} ms, flooded p99 ${floodP99} ms; A's ${FLOOD} runs drained in ${drainMs} ms`;
    process.stdout.write(`[hostile-tenant-automations] ${report}\n`);
    expect({ report, within }).toEqual({ report, within: true });
  }, 400_000);

  it("keeps B's p99 as well while A records a thousand events a second into a twenty-step workflow", async () => {
    const burst: number[] = [];
    const ended = `SELECT count(*)::int AS n FROM ${automations}.workflow_runs WHERE workspace_id = $1 AND workflow_id = (SELECT id FROM ${automations}.workflows WHERE name = 'Burst')`;
    const startedAt = Date.now();
    // A thousand a second: a hundred every 100 ms, as long as B is timed.
    const publishing = publishEvents('burst', FLOOD, BURST, 100, 100);
    await eventually(
      "A's burst starting runs",
      async () => (await countOf(db, ended, [a.workspaceId])) > 0,
      30_000,
      20,
    );
    for (let seq = 0; seq < SAMPLES; seq += 1) burst.push(await bEventToQueued(2000 + seq));
    await publishing;
    await eventually(
      `A's ${BURST} burst runs`,
      async () => (await countOf(db, ended, [a.workspaceId])) === BURST,
      240_000,
      200,
    );
    const drainMs = Date.now() - startedAt;
    const calmP99 = percentile(calm, 0.99);
    const burstP99 = percentile(burst, 0.99);
    const within = burstP99 <= P99_FACTOR * calmP99 + P99_SLACK_MS || burstP99 <= drainMs / 3;
    const report = `calm p99 ${calmP99} ms, during A's burst p99 ${burstP99} ms; A's ${BURST} runs done in ${drainMs} ms`;
    process.stdout.write(`[hostile-tenant-automations] ${report}\n`);
    expect({ report, within }).toEqual({ report, within: true });
  }, 400_000);
});
