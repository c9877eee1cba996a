import { createHmac } from 'node:crypto';

import { migrationDrift } from '@cms/persistence';
import { entitiesOf, migrationsOf } from '@cms/service-kit';
import { MigrationStages } from '@cms/testing';
import { DataSource } from 'typeorm';

import {
  GATEWAY_ID_COLUMNS,
  GatewayBigintIds1764000000000,
  LAST_BLOCK_START,
} from '../migrations/1764000000000-gateway-bigint-ids.migration';
import { GATEWAY_SERVICE } from '../src/gateway.service';
import { IntegrationEntity } from '../src/integrations/integration.entity';
import { ApiKeyEntity } from '../src/workspaces/api-key.entity';
import { WorkspaceEntity } from '../src/workspaces/workspace.entity';
import { ADMIN_TOKEN, startHarness, type Harness } from './gateway.harness';

/**
 * Identifiers are positive integers up to 2^53 − 1 (extensions §1), minted by the gateway from its
 * sequences a block at a time. The sequences are moved to their last blocks, and what the gateway
 * mints from them is stored, answered and read back as the same numbers.
 */
const LAST_ID = Number.MAX_SAFE_INTEGER;
const GATEWAY_MIGRATIONS = migrationsOf(GATEWAY_SERVICE);
const GATEWAY_ENTITIES = entitiesOf(GATEWAY_SERVICE);
/** Workspace ids travel as the envelope's workspaceid, all 16 digits of them: the last block too. */
const WORKSPACE_BLOCK_START = LAST_BLOCK_START;

type Data = { data: Record<string, unknown> };

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
  const dataSource = harness.gateway.app.get(DataSource);
  await dataSource.query(`SELECT setval('workspace_ids', $1, false)`, [WORKSPACE_BLOCK_START]);
  for (const kind of ['api_key', 'integration']) {
    await dataSource.query(`SELECT setval('${kind}_ids', $1, false)`, [LAST_BLOCK_START]);
  }
});

afterAll(async () => {
  await harness?.stop();
});

describe('ids minted from the last blocks of the sequences', () => {
  it('name a workspace, an API key and an integration that are stored, used and read back', async () => {
    const workspace = await harness.call('POST', '/admin/v1/workspaces', {
      token: ADMIN_TOKEN,
      body: { name: 'Large', plan: 'pro' },
    });
    expect(workspace.status).toBe(201);
    const workspaceId = (workspace.body as Data).data.id as number;
    expect(workspaceId).toBe(WORKSPACE_BLOCK_START);

    const renamed = await harness.call('PATCH', `/admin/v1/workspaces/${workspaceId}`, {
      token: ADMIN_TOKEN,
      body: { name: 'Larger' },
    });
    expect(renamed).toMatchObject({ status: 200, body: { data: { id: workspaceId, name: 'Larger' } } });

    const key = await harness.call('POST', `/admin/v1/workspaces/${workspaceId}/api-keys`, {
      token: ADMIN_TOKEN,
      body: { name: 'backend', permissions: ['read', 'create'] },
    });
    expect(key.status).toBe(201);
    const keyData = (key.body as Data).data;
    expect(keyData.id).toBe(LAST_BLOCK_START);
    expect(LAST_BLOCK_START + 99).toBe(LAST_ID);

    // The key is found by its hash (a raw query over bigint ids) and acts for its workspace.
    const created = await harness.call('POST', '/api/v1/integrations', {
      token: String(keyData.key),
      body: { type: 'typeform', name: 'Signups' },
    });
    expect(created.status).toBe(201);
    const integration = (created.body as Data).data;
    expect(integration.id).toBe(LAST_BLOCK_START);

    const read = await harness.call('GET', `/api/v1/integrations/${LAST_BLOCK_START}`, {
      token: String(keyData.key),
    });
    expect(read).toMatchObject({ status: 200, body: { data: { id: LAST_BLOCK_START, name: 'Signups' } } });
    const list = await harness.call('GET', '/api/v1/integrations', { token: String(keyData.key) });
    expect((list.body as { data: unknown[] }).data).toEqual([
      expect.objectContaining({ id: LAST_BLOCK_START }),
    ]);

    // The inbound webhook finds the integration by its token (a raw query over bigint ids): a known URL
    // is rate-limited and answers with the headers, where an unknown one would not.
    const url = String(integration.webhook_url);
    const body = JSON.stringify({ phone: '+14155550100' });
    const wrongSignature = createHmac('sha256', 'not-the-secret').update(body).digest('hex');
    const inbound = await harness.call('POST', url.slice(url.indexOf('/webhook/')), {
      body,
      headers: { 'content-type': 'application/json', 'x-webhook-signature': wrongSignature },
    });
    expect(inbound.status).toBe(401);
    expect(inbound.headers.get('x-ratelimit-limit')).not.toBeNull();
  });

  it('refuse to hand out a block that would go past 2^53 − 1', async () => {
    const dataSource = harness.gateway.app.get(DataSource);
    await dataSource.query(`SELECT setval('tag_ids', $1, true)`, [LAST_BLOCK_START]);
    await expect(dataSource.query(`SELECT nextval('tag_ids')`)).rejects.toThrow(/maximum value/);
  });
});

describe('the migration of gateway ids to bigint', () => {
  const stages = new MigrationStages('gateway_bigint');
  const open = (
    migrations: typeof GATEWAY_MIGRATIONS,
    entities: typeof GATEWAY_ENTITIES = GATEWAY_ENTITIES,
  ) => stages.open(migrations, entities);
  const schema = stages.schema;
  const INT4_MAX = 2 ** 31 - 1;

  afterAll(() => stages.close());

  it('keeps the workspaces, keys, integrations and sequence positions of a schema that has data', async () => {
    const before = GATEWAY_MIGRATIONS.indexOf(GatewayBigintIds1764000000000);
    expect(before).toBeGreaterThan(0);
    const old = await open(GATEWAY_MIGRATIONS.slice(0, before), []);
    const at = '2026-01-01T00:00:00.000Z';
    await old.query(
      `INSERT INTO workspaces (id, name, plan, created_at, updated_at) VALUES ($1, 'Acme', 'pro', $2, $2)`,
      [INT4_MAX, at],
    );
    await old.query(
      `INSERT INTO api_keys (id, workspace_id, name, permissions, key_hash, key_prefix, created_at)
       VALUES ($1, $1, 'backend', '{read}', 'hash', 'cms_live_abc', $2)`,
      [INT4_MAX, at],
    );
    await old.query(
      `INSERT INTO integrations (id, workspace_id, type, name, config, signing_secret_sealed, token_hash, created_at,
         updated_at)
       VALUES ($1, $1, 'typeform', 'Signups', '{"sync_frequency":null,"field_mappings":[]}', 'sealed', 'token', $2, $2)`,
      [INT4_MAX, at],
    );
    await old.query(`SELECT setval('workspace_ids', 501, true)`);
    await old.destroy();

    const migrated = await open(GATEWAY_MIGRATIONS);
    const types: Array<{ table_name: string; column_name: string; data_type: string }> = await migrated.query(
      'SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = $1',
      [schema],
    );
    for (const [table, columns] of Object.entries(GATEWAY_ID_COLUMNS)) {
      for (const column of columns) {
        const type = types.find((row) => row.table_name === table && row.column_name === column)?.data_type;
        expect([table, column, type]).toEqual([table, column, 'bigint']);
      }
    }
    expect(await migrationDrift(migrated)).toEqual([]);
    expect(await migrated.getRepository(WorkspaceEntity).findOneByOrFail({ id: INT4_MAX })).toMatchObject({
      name: 'Acme',
      plan: 'pro',
    });
    expect(await migrated.getRepository(ApiKeyEntity).findOneByOrFail({ id: INT4_MAX })).toMatchObject({
      workspaceId: INT4_MAX,
      keyHash: 'hash',
    });
    expect(await migrated.getRepository(IntegrationEntity).findOneByOrFail({ id: INT4_MAX })).toMatchObject({
      workspaceId: INT4_MAX,
      name: 'Signups',
    });
    // The sequence carries on from where it was.
    expect(await migrated.query(`SELECT nextval('workspace_ids')::text AS next`)).toEqual([{ next: '601' }]);
  });
});
