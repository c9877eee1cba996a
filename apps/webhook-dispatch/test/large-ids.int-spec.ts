import { deterministicId } from '@cms/contracts';
import { migrationDrift } from '@cms/persistence';
import { entitiesOf, migrationsOf } from '@cms/service-kit';
import { MigrationStages } from '@cms/testing';

import {
  WEBHOOK_DISPATCH_ID_COLUMNS,
  WebhookDispatchBigintIds1764000000000,
} from '../migrations/1764000000000-webhook-dispatch-bigint-ids.migration';
import { WebhookDeliveryEntity } from '../src/deliveries/webhook-delivery.entity';
import { WebhookEndpointEntity } from '../src/endpoints/webhook-endpoint.entity';
import { WEBHOOK_DISPATCH_SERVICE } from '../src/webhook-dispatch.service';
import { Receiver } from './receiver.fixture';
import { received } from './support/wait';
import { makeTestCertificates, type TestCertificates } from './tls.fixture';
import { DispatchHarness } from './webhook-dispatch.harness';

const WEBHOOK_DISPATCH_ALL_MIGRATIONS = migrationsOf(WEBHOOK_DISPATCH_SERVICE);
const WEBHOOK_DISPATCH_ENTITIES = entitiesOf(WEBHOOK_DISPATCH_SERVICE);

/** Workspace ids are positive integers up to 2^53 − 1 (extensions §1): the largest of them. */
const LARGE_WORKSPACE = Number.MAX_SAFE_INTEGER;
const INT4_MAX = 2 ** 31 - 1;

let tls: TestCertificates;
let harness: DispatchHarness;
let hooks: Receiver;

beforeAll(async () => {
  tls = makeTestCertificates();
  hooks = await Receiver.start(tls);
  harness = await DispatchHarness.start({ tls, env: { WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8,::1/128' } });
});

afterAll(async () => {
  await harness?.stop();
  await hooks?.close();
  tls?.remove();
});

describe('a workspace id past 2^31 − 1', () => {
  it('owns its endpoints, and its facts are delivered to them', async () => {
    const { id: endpointId } = await harness.createEndpoint(LARGE_WORKSPACE, hooks.url('/large'));
    expect((await harness.endpoint(LARGE_WORKSPACE, endpointId)).id).toBe(endpointId);
    const fact = await harness.consent(LARGE_WORKSPACE, { status: 'granted', channel: 'sms' });
    const deliveryId = deterministicId(fact.id, endpointId);
    await received(hooks, 1, deliveryId);
    const delivery = await harness.delivery(
      LARGE_WORKSPACE,
      endpointId,
      deliveryId,
      (d) => d.status === 'succeeded',
    );
    expect(delivery).toMatchObject({ id: deliveryId, status: 'succeeded' });
  });
});

describe('the migration of webhook-dispatch ids to bigint', () => {
  const stages = new MigrationStages('webhook_dispatch_bigint');
  const open = (
    migrations: typeof WEBHOOK_DISPATCH_ALL_MIGRATIONS,
    entities: typeof WEBHOOK_DISPATCH_ENTITIES = WEBHOOK_DISPATCH_ENTITIES,
  ) => stages.open(migrations, entities);
  const schema = stages.schema;

  afterAll(() => stages.close());

  it('keeps the endpoints and deliveries of a schema that has data, and takes larger ids afterwards', async () => {
    const before = WEBHOOK_DISPATCH_ALL_MIGRATIONS.indexOf(WebhookDispatchBigintIds1764000000000);
    expect(before).toBeGreaterThan(0);
    const old = await open(WEBHOOK_DISPATCH_ALL_MIGRATIONS.slice(0, before), []);
    const endpointId = '00000000-0000-4000-8000-000000000001';
    const at = '2026-01-01T00:00:00.000Z';
    await old.query(
      `INSERT INTO webhook_endpoints (id, workspace_id, url, description, event_types, enabled, secret_sealed,
         created_at, updated_at)
       VALUES ($1, $2, 'https://hooks.example.com/', null, '{consent.granted}', true, 'sealed', $3, $3)`,
      [endpointId, INT4_MAX, at],
    );
    await old.query(
      `INSERT INTO webhook_deliveries (id, endpoint_id, workspace_id, event_type, body, counts_toward_switch_off,
         status, created_at, updated_at)
       VALUES ('00000000-0000-4000-8000-000000000002', $1, $2, 'consent.granted', '{}', true, 'pending', $3, $3)`,
      [endpointId, INT4_MAX, at],
    );
    await old.destroy();

    const migrated = await open(WEBHOOK_DISPATCH_ALL_MIGRATIONS);
    const types: Array<{ table_name: string; column_name: string; data_type: string }> = await migrated.query(
      'SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = $1',
      [schema],
    );
    for (const [table, columns] of Object.entries(WEBHOOK_DISPATCH_ID_COLUMNS)) {
      for (const column of columns) {
        const type = types.find((row) => row.table_name === table && row.column_name === column)?.data_type;
        expect([table, column, type]).toEqual([table, column, 'bigint']);
      }
    }
    expect(await migrationDrift(migrated)).toEqual([]);
    const endpoints = migrated.getRepository(WebhookEndpointEntity);
    expect(await endpoints.findOneByOrFail({ id: endpointId })).toMatchObject({
      workspaceId: INT4_MAX,
      url: 'https://hooks.example.com/',
    });
    expect(await migrated.getRepository(WebhookDeliveryEntity).findOneByOrFail({ endpointId })).toMatchObject(
      {
        workspaceId: INT4_MAX,
        status: 'pending',
      },
    );
    await endpoints.update({ id: endpointId }, { workspaceId: Number.MAX_SAFE_INTEGER });
    expect((await endpoints.findOneByOrFail({ id: endpointId })).workspaceId).toBe(Number.MAX_SAFE_INTEGER);
  });
});
