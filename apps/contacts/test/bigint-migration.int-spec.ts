import { migrationDrift } from '@cms/persistence';
import { MigrationStages } from '@cms/testing';
import type { DataSource } from 'typeorm';

import {
  CONTACTS_ID_COLUMNS,
  ContactsBigintIds1764000000000,
} from '../migrations/1764000000000-contacts-bigint-ids.migration';
import { ContactEntity } from '../src/contacts/contact.entity';
import { InboundReceiptEntity } from '../src/contacts/inbound-receipt.entity';
import { entitiesOf, migrationsOf } from '@cms/service-kit';

import { CONTACTS_SERVICE } from '../src/contacts.service';
import { ContactTagEntity } from '../src/tags/contact-tag.entity';

const CONTACTS_ALL_MIGRATIONS = migrationsOf(CONTACTS_SERVICE);
const CONTACTS_ENTITIES = entitiesOf(CONTACTS_SERVICE);

/** The largest id an integer column held: every row below is written with it. */
const INT4_MAX = 2 ** 31 - 1;
const AT = '2026-01-01T00:00:00.000Z';

const stages = new MigrationStages('contacts_bigint');
const open = (
  migrations: typeof CONTACTS_ALL_MIGRATIONS,
  entities: typeof CONTACTS_ENTITIES = CONTACTS_ENTITIES,
) => stages.open(migrations, entities);
const schema = stages.schema;

afterAll(() => stages.close());

describe('the migration of contacts ids to bigint', () => {
  it('keeps the rows of a schema that has data, and lets ids past 2^31 − 1 in afterwards', async () => {
    const before = CONTACTS_ALL_MIGRATIONS.indexOf(ContactsBigintIds1764000000000);
    expect(before).toBeGreaterThan(0);
    const old = await open(CONTACTS_ALL_MIGRATIONS.slice(0, before), []);
    const id = INT4_MAX;
    await old.query(
      `INSERT INTO contacts (id, workspace_id, name, phone, email, external_id, source, data, marketing_consent,
         value_times, created_at, updated_at)
       VALUES ($1, $1, 'Ada', '+14155550100', 'ada@example.com', 'crm-1', 'api', '{"plan":"gold"}', '{"sms":true}',
         '{}', $2, $2)`,
      [id, AT],
    );
    await old.query(
      `INSERT INTO contact_channels (contact_id, channel, workspace_id, external_id, linked_at)
       VALUES ($1, 'telegram', $1, 'tg-1', $2)`,
      [id, AT],
    );
    await old.query(
      `INSERT INTO consent_changes (id, workspace_id, contact_id, channel, granted, previous, source, occurred_at,
         recorded_at)
       VALUES ('00000000-0000-4000-8000-000000000001', $1, $1, 'sms', true, null, 'api', $2, $2)`,
      [id, AT],
    );
    await old.query('INSERT INTO workspace_usage (workspace_id, contacts) VALUES ($1, 1)', [id]);
    await old.query(
      `INSERT INTO tags (id, workspace_id, name, color, created_at, updated_at) VALUES ($1, $1, 'VIP', null, $2, $2)`,
      [id, AT],
    );
    await old.query(
      'INSERT INTO contact_tags (contact_id, tag_id, workspace_id, attached_at) VALUES ($1, $1, $1, $2)',
      [id, AT],
    );
    await old.query(
      `INSERT INTO events (id, workspace_id, name, contact_id, data, occurred_at, received_at, idempotency_key)
       VALUES ($1, $1, 'signup', $1, '{}', $2, $2, 'k')`,
      [id, AT],
    );
    await old.query(
      `INSERT INTO inbound_receipts (workspace_id, key, integration_id, event_id, contact_id, recorded_at)
       VALUES ($1, 'integration:1:id:a', $1, $1, $1, $2)`,
      [id, AT],
    );
    const rowsBefore = await snapshot(old);
    await old.destroy();

    const migrated = await open(CONTACTS_ALL_MIGRATIONS);
    const types: Array<{ table_name: string; column_name: string; data_type: string }> = await migrated.query(
      `SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = $1`,
      [schema],
    );
    for (const [table, columns] of Object.entries(CONTACTS_ID_COLUMNS)) {
      for (const column of columns) {
        const type = types.find((row) => row.table_name === table && row.column_name === column)?.data_type;
        expect([table, column, type]).toEqual([table, column, 'bigint']);
      }
    }
    // Later migrations may add columns: the rows keep every value they had.
    const rowsAfter = await snapshot(migrated);
    for (const [table, rows] of Object.entries(rowsBefore)) {
      expect([table, rowsAfter[table]]).toEqual([table, rows.map((row) => expect.objectContaining(row))]);
    }
    expect(await migrationDrift(migrated)).toEqual([]);

    // The entities read the old rows as numbers, and take ids up to 2^53 − 1.
    const contacts = migrated.getRepository(ContactEntity);
    expect(await contacts.findOneByOrFail({ id })).toMatchObject({ id, workspaceId: id, name: 'Ada' });
    const large = Number.MAX_SAFE_INTEGER;
    await contacts.save(
      Object.assign(await contacts.findOneByOrFail({ id }), {
        id: large,
        workspaceId: large - 1,
        phone: null,
        email: null,
        externalId: null,
      }),
    );
    expect(await contacts.findOneByOrFail({ id: large })).toMatchObject({
      id: large,
      workspaceId: large - 1,
    });
    await migrated
      .getRepository(ContactTagEntity)
      .insert({ contactId: large, tagId: id, workspaceId: large - 1, attachedAt: new Date(AT) });
    expect(await migrated.getRepository(ContactTagEntity).findBy({ contactId: large })).toEqual([
      { contactId: large, tagId: id, workspaceId: large - 1, attachedAt: new Date(AT) },
    ]);
    expect(
      await migrated.getRepository(InboundReceiptEntity).findOneByOrFail({ workspaceId: id }),
    ).toMatchObject({
      integrationId: id,
      eventId: id,
      contactId: id,
    });
  });
});

/** Every row of the tables the migration changes, with ids as text so both column types compare. */
async function snapshot(dataSource: DataSource): Promise<Record<string, object[]>> {
  const rows: Record<string, object[]> = {};
  for (const table of Object.keys(CONTACTS_ID_COLUMNS)) {
    rows[table] = (await dataSource.query(`SELECT * FROM ${table}`)).map((row: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(row).map(([key, value]) => [key, typeof value === 'number' ? String(value) : value]),
      ),
    );
  }
  return rows;
}
