import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/** Rows one statement writes at most. */
const ROWS_PER_STATEMENT = 1000;

/**
 * Inserts rows of an entity, or replaces the stored ones with the same primary key, a thousand to a
 * statement, the rows travelling as one JSON parameter (jsonb_populate_recordset): where a service
 * writes many rows at once, an insert built by the ORM from entities costs more than anything else.
 * Every column of the entity is written; dates go as ISO 8601, jsonb and arrays as JSON.
 */
export async function upsertEntities<E extends ObjectLiteral>(
  manager: EntityManager,
  entity: EntityTarget<E>,
  rows: readonly E[],
): Promise<void> {
  if (rows.length === 0) return;
  const metadata = manager.connection.getMetadata(entity);
  const columns = metadata.columns.map((column) => [column.databaseName, column.propertyName] as const);
  const names = columns.map(([name]) => name);
  const keys = metadata.primaryColumns.map((column) => column.databaseName);
  const updated = names.filter((name) => !keys.includes(name));
  const table = metadata.tableName;
  const onConflict =
    updated.length === 0
      ? 'DO NOTHING'
      : `DO UPDATE SET ${updated.map((name) => `${name} = EXCLUDED.${name}`).join(', ')}`;
  const upsert = `INSERT INTO ${table} (${names.join(', ')})
    SELECT ${names.join(', ')} FROM jsonb_populate_recordset(NULL::${table}, $1::jsonb)
    ON CONFLICT (${keys.join(', ')}) ${onConflict}`;
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const slice = rows.slice(start, start + ROWS_PER_STATEMENT).map((row) => {
      const values: Record<string, unknown> = {};
      for (const [name, property] of columns) values[name] = (row as Record<string, unknown>)[property];
      return values;
    });
    await manager.query(upsert, [JSON.stringify(slice)]);
  }
}
