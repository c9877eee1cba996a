import { MigrationStages } from '@cms/testing';

import { ContactsUniqueIdentity1764000100000 } from '../migrations/1764000100000-contacts-unique-identity.migration';
import { migrationsOf } from '@cms/service-kit';

import { CONTACTS_SERVICE } from '../src/contacts.service';

const CONTACTS_ALL_MIGRATIONS = migrationsOf(CONTACTS_SERVICE);

const stages = new MigrationStages('contacts_identity');
const open = (migrations: typeof CONTACTS_ALL_MIGRATIONS) => stages.open(migrations);

afterAll(() => stages.close());

interface Row {
  id: string;
  external_id: string | null;
  email: string | null;
  updated_at: Date;
}

describe('the migration that makes identity unique', () => {
  it('leaves each external id and email with its most recently updated holder, then refuses a second holder', async () => {
    const before = CONTACTS_ALL_MIGRATIONS.indexOf(ContactsUniqueIdentity1764000100000);
    expect(before).toBeGreaterThan(0);
    const old = await open(CONTACTS_ALL_MIGRATIONS.slice(0, before));
    const contact = (
      id: number,
      workspace: number,
      externalId: string | null,
      email: string | null,
      at: string,
    ) =>
      old.query(
        `INSERT INTO contacts (id, workspace_id, name, phone, email, external_id, source, data, marketing_consent,
           value_times, created_at, updated_at)
         VALUES ($1, $2, 'C', null, $3, $4, null, '{}', '{}', '{}', $5, $5)`,
        [id, workspace, email, externalId, at],
      );
    // Workspace 1: three holders of crm-1 (the newest is 2), two of one email in two cases (the newest
    // is 4), and a tie on time broken by the higher id (6 over 5). Workspace 2 shares nothing with 1.
    await contact(1, 1, 'crm-1', 'ada@example.com', '2026-01-01T00:00:00.000Z');
    await contact(2, 1, 'crm-1', null, '2026-01-03T00:00:00.000Z');
    await contact(3, 1, 'crm-1', null, '2026-01-02T00:00:00.000Z');
    await contact(4, 1, null, 'ADA@example.com', '2026-01-04T00:00:00.000Z');
    await contact(5, 1, 'crm-5', null, '2026-01-05T00:00:00.000Z');
    await contact(6, 1, 'crm-5', null, '2026-01-05T00:00:00.000Z');
    await contact(7, 2, 'crm-1', 'ada@example.com', '2026-01-01T00:00:00.000Z');

    const migrated = await open(CONTACTS_ALL_MIGRATIONS);
    const rows: Row[] = await migrated.query(
      'SELECT id::text AS id, external_id, email, updated_at FROM contacts ORDER BY id',
    );
    expect(rows.map(({ id, external_id, email }) => [id, external_id, email])).toEqual([
      ['1', null, null],
      ['2', 'crm-1', null],
      ['3', null, null],
      ['4', null, 'ADA@example.com'],
      ['5', null, null],
      ['6', 'crm-5', null],
      ['7', 'crm-1', 'ada@example.com'],
    ]);
    // A contact that lost an identifier counts as changed as late as the contact that kept it.
    expect(rows.map((row) => row.updated_at.toISOString())).toEqual([
      '2026-01-04T00:00:00.000Z',
      '2026-01-03T00:00:00.000Z',
      '2026-01-03T00:00:00.000Z',
      '2026-01-04T00:00:00.000Z',
      '2026-01-05T00:00:00.000Z',
      '2026-01-05T00:00:00.000Z',
      '2026-01-01T00:00:00.000Z',
    ]);

    await expect(
      migrated.query("UPDATE contacts SET email = 'Ada@Example.com' WHERE id = 2"),
    ).rejects.toThrow(/contacts_workspace_email/);
    await expect(migrated.query("UPDATE contacts SET external_id = 'crm-5' WHERE id = 1")).rejects.toThrow(
      /contacts_workspace_external_id/,
    );
    expect(await migrated.query('SELECT contact_limit FROM workspace_usage')).toEqual([]);
  });
});
