import type { DataSource, EntityManager } from 'typeorm';

/**
 * The rows of a raw query, whatever its command: TypeORM's Postgres driver answers UPDATE and DELETE
 * (with or without RETURNING) as `[rows, affectedCount]` and every other command as the rows.
 */
export async function rowsOf<T>(
  runner: EntityManager | DataSource,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const result: unknown = await runner.query(sql, params);
  if (
    Array.isArray(result) &&
    result.length === 2 &&
    Array.isArray(result[0]) &&
    typeof result[1] === 'number'
  ) {
    return result[0] as T[];
  }
  return result as T[];
}
