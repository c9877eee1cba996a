import { createKafka } from '@cms/kafka';
import { eventually } from '@cms/testing';
import type { Admin } from 'kafkajs';
import { Client } from 'pg';

import { System } from '../src';
import { dropLeftovers, nextIds, replayInPlace, runOps, tablesOf, topicSize } from '../src/ops-replay';

/**
 * `ops replay gateway`, run as an operator would, against the real gateway: its projection (workspaces,
 * API keys, integrations) is rebuilt row for row, nothing is published again, and its id sequences,
 * which the log does not hold, are never reset: an id minted afterwards is above every id before.
 */

let system: System;
let db: Client;
let admin: Admin;

async function topicSizes(): Promise<Record<string, number>> {
  const sizes: Record<string, number> = {};
  for (const topic of Object.values(system.topics)) sizes[topic] = await topicSize(admin, topic);
  return sizes;
}

/** An operator's and a customer's writes: workspaces, a plan change, keys made and deleted, integrations, a refusal. */
async function workload(round: string): Promise<void> {
  const { workspaceId, key } = await system.tenant('pro');
  const renamed = await system.call('PATCH', `/admin/v1/workspaces/${workspaceId}`, {
    admin: true,
    body: { name: `ws ${round}`, plan: 'business' },
  });
  expect(renamed.status).toBe(200);
  const extra = await system.call<{ data: { id: number } }>(
    'POST',
    `/admin/v1/workspaces/${workspaceId}/api-keys`,
    { admin: true, body: { name: `extra ${round}`, permissions: ['read'] } },
  );
  expect(extra.status).toBe(201);
  expect(
    (await system.call('DELETE', `/admin/v1/api-keys/${extra.body.data.id}`, { admin: true })).status,
  ).toBe(204);
  for (const name of ['Shop', 'CRM']) {
    const integration = await system.call('POST', '/api/v1/integrations', {
      key,
      body: { type: 'webhook', name: `${name} ${round}` },
    });
    expect(integration.status).toBe(201);
  }
  const missing = await system.call('PATCH', '/admin/v1/workspaces/999999999', {
    admin: true,
    body: { name: 'nobody' },
  });
  expect(missing.status).toBe(404);
}

/** The largest id of each projection table. */
function maxIds(tables: Record<string, unknown[]>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(tables).map(([table, rows]) => [
      table,
      Math.max(0, ...rows.map((row) => Number((row as { id: number }).id))),
    ]),
  );
}

beforeAll(async () => {
  system = await System.start(['gateway']);
  db = new Client({ connectionString: system.stack.databaseUrl });
  await db.connect();
  admin = createKafka({ brokers: system.stack.kafkaBrokers, clientId: 'e2e-ops-gateway' }).admin();
  await admin.connect();
  await workload('a');
  await workload('b');
}, 120000);

afterAll(async () => {
  if (db && system) await dropLeftovers(db, system.schema('gateway'));
  await db?.end();
  await admin?.disconnect();
  await system?.stop();
});

describe('ops replay gateway --in-place', () => {
  it('refuses while the gateway runs', async () => {
    const run = await runOps(system, 'gateway', [
      'replay',
      'gateway',
      '--in-place',
      '--schema',
      system.schema('gateway'),
    ]).done;
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/gateway is running .*stop it first/);
  });

  it('rebuilds workspaces, keys and integrations row for row, publishes nothing, and leaves the id sequences alone', async () => {
    const schema = system.schema('gateway');
    await system.halt('gateway');
    const before = await tablesOf(db, schema);
    expect(Object.keys(before).sort()).toEqual(['api_keys', 'integrations', 'workspaces']);
    expect(before.workspaces!.length).toBe(2);
    expect(before.api_keys!.length).toBe(4);
    expect(before.integrations!.length).toBe(4);
    const ids = await nextIds(db, schema);
    expect(ids.workspace_ids).toBeGreaterThan(1);
    const sizes = await topicSizes();

    const report = await replayInPlace(system, 'gateway', schema);
    expect(report).toEqual(
      expect.objectContaining({
        service: 'gateway',
        mode: 'in-place',
        schema,
        records: sizes[system.topics.requests],
      }),
    );

    expect(await tablesOf(db, schema)).toEqual(before);
    expect(await nextIds(db, schema)).toEqual(ids);
    expect(await topicSizes()).toEqual(sizes);

    await system.resume('gateway');
    const { workspaceId, keyId } = await system.tenant('pro');
    const max = maxIds(before);
    expect(workspaceId).toBeGreaterThan(max.workspaces!);
    expect(keyId).toBeGreaterThan(max.api_keys!);
  });
});

describe('ops replay gateway --blue-green', () => {
  it('builds beside the running gateway, switches when it stops, and never hands out an id twice', async () => {
    const schema = system.schema('gateway');
    const target = `${schema}_green`.slice(0, 63);
    let waiting = false;
    const run = runOps(
      system,
      'gateway',
      ['replay', 'gateway', '--blue-green', '--schema', schema, '--target-schema', target],
      (stderr) => {
        if (/Stop it to switch/.test(stderr)) waiting = true;
      },
    );
    await eventually('the new schema caught up', async () => waiting, 60000, 100);
    // The live gateway keeps minting ids and deciding requests while the new schema is built.
    await workload('c');
    await system.halt('gateway');
    const live = await tablesOf(db, schema);
    const liveIds = await nextIds(db, schema);
    const sizes = await topicSizes();
    const result = await run.done;
    expect({ code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({
      code: 0,
      stderr: '',
    });
    const previous = /kept as (\S+);/.exec(result.stdout)?.[1];
    expect(previous).toBeDefined();
    expect(await tablesOf(db, previous!)).toEqual(live);
    expect(await tablesOf(db, schema)).toEqual(live);
    const switchedIds = await nextIds(db, schema);
    expect(Object.keys(switchedIds)).toEqual(Object.keys(liveIds));
    for (const [sequence, next] of Object.entries(liveIds))
      expect({ sequence, atLeast: switchedIds[sequence]! >= next }).toEqual({ sequence, atLeast: true });
    expect(await topicSizes()).toEqual(sizes);

    await system.resume('gateway');
    const max = maxIds(live);
    const { workspaceId, key, keyId } = await system.tenant('pro');
    expect(workspaceId).toBeGreaterThan(max.workspaces!);
    expect(keyId).toBeGreaterThan(max.api_keys!);
    const integration = await system.call<{ data: { id: number } }>('POST', '/api/v1/integrations', {
      key,
      body: { type: 'webhook', name: 'After the switch' },
    });
    expect(integration.status).toBe(201);
    expect(integration.body.data.id).toBeGreaterThan(max.integrations!);
  });
});
