import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Identity is unique per workspace (extensions §2): at most one contact holds a given phone, external_id
 * or email (whatever its case). Phones were unique already; external ids and emails were not, so the
 * contacts that share one are resolved first, deterministically: the most recently updated contact
 * (then the highest id) keeps it and the others lose it, their `updated_at` moving up to the keeper's.
 * Then unique indexes make a second holder impossible, whatever a bug in the rules might try.
 *
 * `workspace_usage.contact_limit` is the stored-contacts limit of the workspace's latest plan record
 * (workspace.create/update.requested), so that every later request is judged by it in log order.
 */
export class ContactsUniqueIdentity1764000100000 implements MigrationInterface {
  name = 'ContactsUniqueIdentity1764000100000';

  async up(runner: QueryRunner): Promise<void> {
    for (const [column, value] of [
      ['external_id', 'external_id'],
      ['email', 'lower(email)'],
    ] as const) {
      await runner.query(`
        WITH holders AS (
          SELECT id,
                 row_number() OVER same AS rank,
                 max(updated_at) OVER same AS latest
          FROM contacts
          WHERE ${column} IS NOT NULL
          WINDOW same AS (PARTITION BY workspace_id, ${value} ORDER BY updated_at DESC, id DESC
                          ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
        )
        UPDATE contacts c SET ${column} = NULL, updated_at = GREATEST(c.updated_at, h.latest)
        FROM holders h WHERE h.id = c.id AND h.rank > 1`);
    }
    await runner.query('DROP INDEX contacts_workspace_external_id');
    await runner.query(
      `CREATE UNIQUE INDEX contacts_workspace_external_id ON contacts (workspace_id, external_id)
       WHERE external_id IS NOT NULL`,
    );
    await runner.query('DROP INDEX contacts_workspace_email');
    await runner.query(
      `CREATE UNIQUE INDEX contacts_workspace_email ON contacts (workspace_id, lower(email))
       WHERE email IS NOT NULL`,
    );
    await runner.query('ALTER TABLE workspace_usage ADD COLUMN contact_limit integer');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE workspace_usage DROP COLUMN contact_limit');
    await runner.query('DROP INDEX contacts_workspace_email');
    await runner.query('CREATE INDEX contacts_workspace_email ON contacts (workspace_id, lower(email))');
    await runner.query('DROP INDEX contacts_workspace_external_id');
    await runner.query('CREATE INDEX contacts_workspace_external_id ON contacts (workspace_id, external_id)');
  }
}
