import { createDataSource, dropSchema, idColumn, migrate, migrationDrift } from '@cms/persistence';
import type { ChunkRecord } from '@cms/kafka';
import { testStack, uniqueName } from '@cms/testing';
import { Column, DataSource, Entity, Index, type EntityManager } from 'typeorm';

import { ContactView, contactViewColumns, type ContactViewRow } from '../src';
import { ContactFacts, NO_CHANNELS } from './fixtures/contact-facts';

/** As the messaging service keeps contacts: the snapshot fields only. */
@Entity({ name: 'plain_contacts' })
@Index('plain_contacts_workspace_phone', ['workspaceId', 'phone'])
class PlainContact extends contactViewColumns() {}

/** As the segments service keeps them: every optional column, and one of its own filled by a hook. */
@Entity({ name: 'full_contacts' })
class FullContact extends contactViewColumns('source', 'tagIds', 'createdAt') {
  @Column(idColumn())
  revision!: number;
}

const SNAPSHOT_COLUMNS = `
  id bigint NOT NULL,
  workspace_id bigint NOT NULL,
  name text,
  phone text,
  email text,
  external_id text,
  data jsonb NOT NULL,
  marketing_consent jsonb NOT NULL,
  channels jsonb NOT NULL,
  updated_at timestamptz NOT NULL`;

const WS = 3;

let dataSource: DataSource;

beforeAll(async () => {
  dataSource = createDataSource({
    url: (await testStack()).databaseUrl,
    schema: uniqueName('contact_view'),
    applicationName: 'contact-view-test',
    entities: [PlainContact, FullContact],
    migrations: [],
  });
  await dataSource.initialize();
  await migrate(dataSource);
  await dataSource.query(`CREATE TABLE plain_contacts (${SNAPSHOT_COLUMNS}, PRIMARY KEY (id))`);
  await dataSource.query(
    'CREATE INDEX plain_contacts_workspace_phone ON plain_contacts (workspace_id, phone)',
  );
  await dataSource.query(
    `CREATE TABLE full_contacts (${SNAPSHOT_COLUMNS}, source text, tag_ids bigint[] NOT NULL,
      created_at timestamptz NOT NULL, revision bigint NOT NULL, PRIMARY KEY (id))`,
  );
});

afterAll(async () => {
  if (!dataSource) return;
  await dropSchema(dataSource);
  await dataSource.destroy();
});

/** Applies a run in a transaction, and the statements it took. */
async function applyRun<E extends ContactViewRow>(
  view: ContactView<E>,
  records: ChunkRecord[],
): Promise<number> {
  return dataSource.transaction(async (manager: EntityManager) => {
    const query = jest.spyOn(manager.queryRunner!, 'query');
    await view.apply(manager, records);
    const statements = query.mock.calls.length;
    query.mockRestore();
    return statements;
  });
}

describe('a view of contacts in Postgres (the kit piece)', () => {
  it("has the columns of the services' migrations (no drift)", async () => {
    expect(await migrationDrift(dataSource)).toEqual([]);
  });

  it('writes the rows a run leaves, and reads the stored ones its links change', async () => {
    const view = new ContactView(PlainContact);
    const facts = new ContactFacts();
    await applyRun(view, [
      facts.snapshot(WS, { contact_id: 1, name: 'Ada', data: { plan: 'gold', nested: { a: 1 } } }),
      facts.snapshot(WS, { contact_id: 2, name: 'Bob', channels: { telegram: 'tg-2', messenger: null } }),
    ]);
    await applyRun(view, [
      facts.link(WS, 1, 'telegram', 'tg-1'),
      facts.unlink(WS, 2, 'telegram', 'tg-other'),
      facts.link(WS + 1, 2, 'messenger', 'not ours'),
      facts.link(WS, 99, 'telegram', 'never seen'),
    ]);
    expect(await dataSource.query('SELECT * FROM plain_contacts ORDER BY id')).toEqual([
      {
        id: '1',
        workspace_id: String(WS),
        name: 'Ada',
        phone: null,
        email: null,
        external_id: null,
        data: { plan: 'gold', nested: { a: 1 } },
        marketing_consent: { sms: null, email: null },
        channels: { ...NO_CHANNELS, telegram: 'tg-1', messenger: null },
        updated_at: new Date('2026-02-03T04:05:06.789Z'),
      },
      expect.objectContaining({
        id: '2',
        name: 'Bob',
        channels: { ...NO_CHANNELS, telegram: 'tg-2', messenger: null },
      }),
    ]);
  });

  it("fills the optional columns its entity keeps, and the service's own with its hooks", async () => {
    const view = new ContactView(FullContact, {
      alsoReads: [],
      begin: () => ({
        changed: (row, at) => {
          row.revision = Number(at.context.offset);
        },
      }),
    });
    const facts = new ContactFacts();
    await applyRun(view, [
      facts.snapshot(WS, {
        contact_id: 5,
        source: 'import',
        tag_ids: [7, 8],
        created_at: '2025-05-05T05:05:05.555Z',
      }),
      facts.link(WS, 5, 'messenger', 'm-5'),
    ]);
    expect(await dataSource.query('SELECT * FROM full_contacts')).toEqual([
      expect.objectContaining({
        id: '5',
        source: 'import',
        tag_ids: ['7', '8'],
        created_at: new Date('2025-05-05T05:05:05.555Z'),
        channels: { ...NO_CHANNELS, telegram: null, messenger: 'm-5' },
        revision: '1',
      }),
    ]);
  });

  it('writes a long run with a statement per thousand rows, and reads its stored rows at once', async () => {
    const view = new ContactView(PlainContact);
    const facts = new ContactFacts();
    const ids = Array.from({ length: 2500 }, (_, index) => 1000 + index);
    expect(
      await applyRun(
        view,
        ids.map((id) => facts.snapshot(WS, { contact_id: id, name: `n${id}` })),
      ),
    ).toBe(3);
    expect(
      await applyRun(
        view,
        ids.map((id) => facts.link(WS, id, 'telegram', `tg-${id}`)),
      ),
    ).toBe(4);
    const [{ linked }] = await dataSource.query(
      `SELECT count(*)::int AS linked FROM plain_contacts WHERE id >= 1000 AND channels->>'telegram' = 'tg-' || id`,
    );
    expect(linked).toBe(ids.length);
  });
});
