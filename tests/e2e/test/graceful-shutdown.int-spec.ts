import { Client } from 'pg';

import { System, type Answer } from '../src';

/**
 * SIGTERM, as Kubernetes sends it before a pod goes: the service stops taking work, finishes what it
 * holds (requests in flight, the transaction in hand, the outbox), and exits well within the pod's
 * grace period (30 s in deploy/k8s).
 */

let system: System;
let db: Client;
let key: string;

beforeAll(async () => {
  system = await System.start(['gateway', 'contacts']);
  db = new Client({ connectionString: system.stack.databaseUrl });
  await db.connect();
  ({ key } = await system.tenant('pro'));
});

afterAll(async () => {
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

describe('graceful shutdown', () => {
  it('the gateway answers the requests it holds before it exits', async () => {
    // With contacts down, accepted requests wait in the gateway for their outcomes.
    await system.halt('contacts');
    const held = Array.from({ length: 10 }, (_, i) => event(i, 'held'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const [exitMs] = await Promise.all([
      timed(() => system.halt('gateway')),
      (async () => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        await system.resume('contacts');
      })(),
    ]);
    const answers = await Promise.all(held);
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(202));
    expect(exitMs).toBeLessThan(12000);
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
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const exitMs = await timed(() => system.halt('contacts'));
    expect(exitMs).toBeLessThan(10000);
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
