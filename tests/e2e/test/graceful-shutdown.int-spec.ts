import { createKafka } from '@cms/kafka';
import { eventually } from '@cms/testing';
import type { Admin } from 'kafkajs';
import { Client } from 'pg';

import { System, type Answer } from '../src';

/**
 * SIGTERM, as Kubernetes sends it before a pod goes: the service stops taking work, finishes what it
 * holds (requests in flight, the transaction in hand, the outbox), and exits well within the pod's
 * grace period (30 s in deploy/k8s). Nothing in a service bounds its exit with a timer of its own, so
 * how soon it exits is compared with a calm figure of the same machine: the time the same service takes
 * to exit holding nothing, measured first.
 */

/** An exit holding work may take this many times the calm exit, plus the slack. */
const EXIT_FACTOR = 3;
const EXIT_SLACK_MS = 2000;

let system: System;
let db: Client;
let admin: Admin;
let key: string;
/** How long each service took to exit on SIGTERM holding nothing. */
const calmExitMs = { gateway: 0, contacts: 0 };

beforeAll(async () => {
  system = await System.start(['gateway', 'contacts']);
  db = new Client({ connectionString: system.stack.databaseUrl });
  await db.connect();
  admin = createKafka({ brokers: system.stack.kafkaBrokers, clientId: 'e2e-shutdown' }).admin();
  await admin.connect();
  ({ key } = await system.tenant('pro'));
  // The calm phase: each service is stopped and started again holding nothing.
  for (const name of ['gateway', 'contacts'] as const) {
    calmExitMs[name] = await timed(() => system.halt(name));
    await system.resume(name);
  }
}, 180000);

afterAll(async () => {
  await admin?.disconnect();
  await db?.end();
  await system?.stop();
});

function event(i: number, round: string): Promise<Answer> {
  return system.call('POST', '/api/v1/events', {
    key,
    headers: { 'idempotency-key': `${round}-${i}` },
    body: { name: 'order.paid', contact: { external_id: `${round}-${i}` }, data: { i } },
  });
}

async function timed(run: () => Promise<void>): Promise<number> {
  const started = Date.now();
  await run();
  return Date.now() - started;
}

/** The records on cms.requests.v1 so far. */
async function requestsOnTheLog(): Promise<number> {
  const offsets = await admin.fetchTopicOffsets(system.topics.requests);
  return offsets.reduce((sum, { high }) => sum + Number(high), 0);
}

/** `exitMs` next to the bound the calm exit of `name` gives, so that a failure shows both. */
function exitWithin(name: keyof typeof calmExitMs, exitMs: number) {
  const bound = EXIT_FACTOR * calmExitMs[name] + EXIT_SLACK_MS;
  return { exitMs, calmExitMs: calmExitMs[name], bound, within: exitMs <= bound };
}

describe('graceful shutdown', () => {
  it('the gateway answers the requests it holds before it exits', async () => {
    // With contacts down, accepted requests wait in the gateway for their outcomes.
    await system.halt('contacts');
    const onTheLog = await requestsOnTheLog();
    let lastAnswerAt = 0;
    const held = Array.from({ length: 10 }, (_, i) =>
      event(i, 'held').then((answer) => {
        lastAnswerAt = Math.max(lastAnswerAt, Date.now());
        return answer;
      }),
    );
    await eventually('the held requests on the log', async () => (await requestsOnTheLog()) >= onTheLog + 10);
    let exitedAt = 0;
    await Promise.all([
      system.halt('gateway').then(() => (exitedAt = Date.now())),
      (async () => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        await system.resume('contacts');
      })(),
    ]);
    const answers = await Promise.all(held);
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(202));
    // It waited for contacts to come back and answer; once it had answered, it exited about as soon as
    // one holding nothing does.
    expect(exitWithin('gateway', exitedAt - lastAnswerAt)).toMatchObject({ within: true });
    await system.resume('gateway');
  });

  it('contacts commits what it took, empties its outbox and exits within seconds under load', async () => {
    let stop = false;
    const statuses: number[] = [];
    const clients = Array.from({ length: 4 }, async (_, client) => {
      for (let i = 0; !stop; i += 1) {
        const answer = await event(i, `load${client}`);
        statuses.push(answer.status);
      }
    });
    await eventually(
      'the load under way',
      async () => statuses.filter((status) => status === 202).length > 10,
    );
    const exitMs = await timed(() => system.halt('contacts'));
    expect(exitWithin('contacts', exitMs)).toMatchObject({ within: true });
    const outbox = await db.query<{ count: string }>(
      `SELECT count(*)::text AS count FROM "${system.schema('contacts')}".outbox`,
    );
    expect(outbox.rows[0]!.count).toBe('0');
    await system.resume('contacts');
    stop = true;
    await Promise.all(clients);
    // Requests taken while contacts was away were answered when it came back (or 503 to be retried).
    expect(statuses.filter((status) => status !== 202 && status !== 503)).toEqual([]);
    expect(statuses.filter((status) => status === 202).length).toBeGreaterThan(10);
  });
});
