import { CONTACT_FACT_TYPES } from '@cms/contracts';
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
 * Issue 29, item 6 (extensions §6, §13 "pacing is fair"): workspace A sends a notification to an
 * audience of thousands while workspace B, on another partition of the request topic, sends
 * transactional messages one after another. B's request → its message `sent` keeps a p99 close to the
 * one it had with A at rest just before (the absolute goal, a p99 under one second during a million-
 * member send, is the bench's), and every member of A's audience gets exactly one message.
 *
 * A's contacts are published on cms.contacts.v1 directly, as the contacts service publishes them (the
 * API's per-workspace budget would take minutes to write them).
 */

const MEMBERS = 20_000;
const SAMPLES = 15;
const P99_FACTOR = 3;
/** What B may wait behind at most: A's chunks in hand at each hop, on two cores A keeps busy. */
const P99_SLACK_MS = 1500;
const FIRST_ID = 900_000_000;

let system: System;
let db: Client;
let messaging: string;
let broadcasts: string;
let a: { workspaceId: number; key: string };
let b: { workspaceId: number; key: string };
let notification: number;
let bContact: number;
let bTemplate: number;

function call<T = unknown>(key: string, method: string, path: string, body?: unknown) {
  return system.call<T>(method, path, { key, ...(body === undefined ? {} : { body }) });
}

/** A's contacts as the contacts service publishes them, each with consent to marketing by sms. */
function publishMembers(): Promise<void> {
  return publishContactFacts(system, a.workspaceId, { first: 0, count: MEMBERS }, (index, now) => {
    const contactId = FIRST_ID + index;
    const snapshot = contactSnapshot(contactId, `+1415${String(6_000_000 + index).padStart(7, '0')}`, now, {
      name: 'Member',
      data: { list: 'spring' },
    });
    snapshot.marketing_consent.sms = true;
    return [{ type: CONTACT_FACT_TYPES.created, subject: String(contactId), data: snapshot }];
  });
}

/** B's timings: request → sent, and its legs (request → message made, made → sent). */
interface Timings {
  ms: number[];
  made: number[];
  sent: number[];
}

const timings = (): Timings => ({ ms: [], made: [], sent: [] });

/** B sends a transactional message: the ms from its request until messaging has sent it, with its legs. */
async function bRequestToSent(into: Timings): Promise<void> {
  const started = Date.now();
  const answer = await call<{ data: { id: string } }>(b.key, 'POST', '/api/v1/messages', {
    contact_id: bContact,
    route: [{ channel: 'sms', template_id: bTemplate }],
  });
  expect(answer.status).toBe(202);
  // Read from messaging's table: B's API budget is for its writes, not for a test's polling.
  const row = await eventually(
    "B's message sent",
    async () =>
      (
        await db.query<{ made: Date; sent: Date }>(
          `SELECT created_at AS made, sent_at AS sent FROM ${messaging}.messages WHERE id = $1 AND sent_at IS NOT NULL`,
          [answer.body.data.id],
        )
      ).rows[0],
    60_000,
    5,
  );
  into.ms.push(Date.now() - started);
  into.made.push(row.made.getTime() - started);
  into.sent.push(row.sent.getTime() - row.made.getTime());
}

beforeAll(async () => {
  system = await System.start(['gateway', 'contacts', 'messaging', 'segments', 'broadcasts']);
  const partitions = await requestPartitionCount(system);
  a = await system.tenant('business');
  do b = await system.tenant('business');
  while (requestPartitionOf(b.workspaceId, partitions) === requestPartitionOf(a.workspaceId, partitions));
  db = new Client({ connectionString: system.stack.databaseUrl });
  await db.connect();
  messaging = system.schema('messaging');
  broadcasts = system.schema('broadcasts');
  const aTemplate = await sandboxSmsAs(system, a.key);
  bTemplate = await sandboxSmsAs(system, b.key);
  bContact = (
    await call<{ data: { id: number } }>(b.key, 'POST', '/api/v1/contacts/upsert', {
      name: 'Bea',
      phone: '+14156660100',
    })
  ).body.data.id;
  await publishMembers();
  const audience = await createAs(system, a.key, '/api/v1/audiences', {
    name: 'Spring list',
    filter_criteria: [{ field: 'data.list', operator: 'eq', value: 'spring' }],
  });
  await eventually(
    `A's audience of ${MEMBERS}`,
    async () => {
      const answer = await call<{ data: { size: number } }>(a.key, 'GET', `/api/v1/audiences/${audience}`);
      return answer.body.data.size === MEMBERS || undefined;
    },
    120_000,
    500,
  );
  notification = await createAs(system, a.key, '/api/v1/notifications', {
    name: 'Spring sale',
    template_id: aTemplate,
    target_group_id: audience,
  });
}, 300_000);

afterAll(async () => {
  await db?.end();
  await system?.stop();
});

describe(`workspace A sends a notification to ${MEMBERS} members while B sends transactional messages`, () => {
  const calm = timings();
  const flooded = timings();

  it("times B's request → message sent with A at rest", async () => {
    for (let seq = 0; seq < SAMPLES; seq += 1) await bRequestToSent(calm);
  }, 120_000);

  it("keeps B's p99 close to its calm one while A's send makes its messages, and A's members get one each", async () => {
    const startedAt = Date.now();
    const accepted = await call<{ data: { send_id: number } }>(a.key, 'POST', '/api/v1/notifications/send', {
      notification_id: notification,
    });
    expect(accepted.status).toBe(202);
    const sendId = accepted.body.data.send_id;
    const made = `SELECT count(*)::int AS n FROM ${messaging}.messages WHERE workspace_id = $1 AND campaign_id = $2`;
    await eventually(
      "A's send making messages",
      async () => (await countOf(db, made, [a.workspaceId, sendId])) > 0,
      60_000,
      20,
    );
    for (let seq = 0; seq < SAMPLES; seq += 1) await bRequestToSent(flooded);
    // B was timed while A's send was still making or sending its messages.
    const statusWhileTimed = await countOf(
      db,
      `SELECT (status <> 'completed')::int AS n FROM ${broadcasts}.sends WHERE id = $1`,
      [sendId],
    );
    await eventually(
      "A's send completed",
      async () => {
        const answer = await call<{ data: { status: string } }>(
          a.key,
          'GET',
          `/api/v1/notification-sends/${sendId}`,
        );
        return answer.body.data.status === 'completed' || undefined;
      },
      300_000,
      500,
    );
    const drainMs = Date.now() - startedAt;
    // Every member once: as many messages as members, each to another contact.
    expect(await countOf(db, made, [a.workspaceId, sendId])).toBe(MEMBERS);
    expect(
      await countOf(
        db,
        `SELECT count(DISTINCT contact_id)::int AS n FROM ${messaging}.messages WHERE workspace_id = $1 AND campaign_id = $2`,
        [a.workspaceId, sendId],
      ),
    ).toBe(MEMBERS);
    const calmP99 = percentile(calm.ms, 0.99);
    const floodP99 = percentile(flooded.ms, 0.99);
    // Within its calm p99 and the slack; or, on a machine busy enough to stretch everything, still far
    // under the time A's send took, which is what B waits when it waits behind A.
    const within = floodP99 <= P99_FACTOR * calmP99 + P99_SLACK_MS || floodP99 <= drainMs / 3;
    const legs = (of: Timings): string =>
      `made p99 ${percentile(of.made, 0.99)} ms, made → sent p99 ${percentile(of.sent, 0.99)} ms`;
    const report =
      `calm p99 ${calmP99} ms (${legs(calm)}), during A's send p99 ${floodP99} ms (${legs(flooded)}); ` +
      `A's ${MEMBERS} messages done in ${drainMs} ms`;
    process.stdout.write(`[hostile-tenant-broadcasts] ${report}\n`);
    expect({ report, within }).toEqual({ report, within: true });
    expect([calm.ms.length, flooded.ms.length]).toEqual([SAMPLES, SAMPLES]);
    expect(statusWhileTimed).toBe(1);
  }, 400_000);
});
