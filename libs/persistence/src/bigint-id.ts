import type { QueryRunner, ValueTransformer } from 'typeorm';

/**
 * A stored identifier as the services handle it: a JavaScript number. Identifiers are positive
 * integers up to 2^53 − 1 (extensions §1), so they are kept as bigint, and pg hands int8 over as a
 * string (it cannot know the value fits in a number). The plumbing's bigint columns (Kafka offsets,
 * outbox ids) stay strings, which is why this is a transformer per column and not a type parser for
 * the whole connection.
 */
export function idFromDatabase(value: string | number): number;
export function idFromDatabase(value: string | number | null): number | null;
export function idFromDatabase(value: string | number | null): number | null {
  if (value === null) return null;
  const id = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(id)) {
    // Nothing the edge accepts is stored above 2^53 − 1; a row that holds one was not written here.
    throw new RangeError(`stored id ${String(value)} is not an integer a JavaScript number holds exactly`);
  }
  return id;
}

export const ID_TRANSFORMER: ValueTransformer = {
  to: (value: unknown) => value,
  // TypeORM also hands over a null or an absent value (a column not selected) to be transformed.
  from: (value: string | number | null | undefined) =>
    value === undefined ? undefined : idFromDatabase(value),
};

/** What an identifier column may say besides its type: its name, and whether it may be null. */
export interface IdColumnOptions {
  name?: string;
  nullable?: boolean;
}

interface IdColumnType {
  type: 'bigint';
  transformer: ValueTransformer;
}

/**
 * The options of an identifier column, for `@Column` and `@PrimaryColumn` alike: bigint in Postgres,
 * a number in the entity.
 */
export function idColumn(): IdColumnType;
export function idColumn<T extends IdColumnOptions>(options: T): T & IdColumnType;
export function idColumn(options: IdColumnOptions = {}): IdColumnOptions & IdColumnType {
  return { ...options, type: 'bigint', transformer: ID_TRANSFORMER };
}

/**
 * The options of a column holding a list of identifiers (bigint[] in Postgres, numbers in the
 * entity): a NULL reads as no identifiers.
 */
export function idArrayColumn(
  options: IdColumnOptions = {},
): IdColumnOptions & IdColumnType & { array: true } {
  return {
    ...options,
    type: 'bigint',
    array: true,
    transformer: {
      to: (ids: number[]) => ids,
      from: (ids: Array<string | number> | null) => (ids ?? []).map(Number),
    },
  };
}

/** Tables and the identifier columns of each. */
export type IdColumns = Readonly<Record<string, readonly string[]>>;

/**
 * A migration step: every column of `columns` becomes `type`, one ALTER TABLE per table, so that each
 * table is rewritten once and its indexes and primary key rebuilt with it. Back to integer it fails,
 * leaving everything as it was, when a stored id no longer fits.
 */
export async function alterIdColumns(
  runner: QueryRunner,
  columns: IdColumns,
  type: 'bigint' | 'integer',
): Promise<void> {
  for (const [table, names] of Object.entries(columns)) {
    const changes = names.map((column) => `ALTER COLUMN ${column} TYPE ${type}`).join(', ');
    await runner.query(`ALTER TABLE ${table} ${changes}`);
  }
}
