import type { EntityManager, EntityMetadata, ObjectLiteral, ValueTransformer } from 'typeorm';

interface ColumnMap {
  property: string;
  column: string;
  json: boolean;
  transformer: ValueTransformer | undefined;
}

const MADE = new WeakMap<EntityMetadata, EntityRows<ObjectLiteral>>();

/**
 * An entity's rows read and written with plain SQL, by its own column metadata: for the decisions of
 * every message, which run thousands a second, without a query builder's work per statement.
 */
export class EntityRows<T extends ObjectLiteral> {
  private readonly columns: ColumnMap[];
  private readonly byProperty: Map<string, ColumnMap>;
  readonly table: string;

  constructor(metadata: EntityMetadata) {
    this.table = metadata.tableName;
    this.columns = metadata.columns.map((column) => ({
      property: column.propertyName,
      column: column.databaseName,
      json: column.type === 'jsonb',
      transformer: Array.isArray(column.transformer) ? undefined : column.transformer,
    }));
    this.byProperty = new Map(this.columns.map((column) => [column.property, column]));
  }

  /** One per entity and connection: the column maps are made once. */
  static of<T extends ObjectLiteral>(manager: EntityManager, entity: new () => T): EntityRows<T> {
    const metadata = manager.connection.getMetadata(entity);
    let rows = MADE.get(metadata);
    if (rows === undefined) {
      rows = new EntityRows<ObjectLiteral>(metadata);
      MADE.set(metadata, rows);
    }
    return rows as EntityRows<T>;
  }

  fromRow(row: Record<string, unknown>): T {
    const entity: Record<string, unknown> = {};
    for (const { property, column, transformer } of this.columns) {
      const value = row[column];
      entity[property] = transformer ? transformer.from(value) : value;
    }
    return entity as T;
  }

  /** The columns and parameters of the given properties, as Postgres takes them. */
  values(entity: Partial<T>): { columns: string[]; values: unknown[] } {
    const columns: string[] = [];
    const values: unknown[] = [];
    for (const [property, value] of Object.entries(entity)) {
      const column = this.byProperty.get(property);
      if (column === undefined || value === undefined) continue;
      columns.push(`"${column.column}"`);
      const stored = column.transformer ? column.transformer.to(value) : value;
      values.push(column.json && stored !== null ? JSON.stringify(stored) : stored);
    }
    return { columns, values };
  }
}
