import { createDataSource, dropSchema, migrate, type DatabaseConfig } from '@cms/persistence';
import type { DataSource } from 'typeorm';

import { testStack } from './stack';
import { uniqueName } from './unique';

type Migrations = DatabaseConfig['migrations'];
type Entities = DatabaseConfig['entities'];

/**
 * One schema migrated in stages, for tests of a migration on a schema that has data: open it with the
 * migrations before the one under test (no entities: the old tables are written with SQL), write rows,
 * then open it again with every migration and look at what they became. `close` drops the schema.
 */
export class MigrationStages {
  readonly schema: string;
  private readonly opened: DataSource[] = [];

  constructor(prefix: string) {
    this.schema = uniqueName(prefix);
  }

  /** The schema, migrated up to and including `migrations`, through a data source of its own. */
  async open(migrations: Migrations, entities: Entities = []): Promise<DataSource> {
    const stack = await testStack();
    const dataSource = createDataSource({
      url: stack.databaseUrl,
      schema: this.schema,
      applicationName: `${this.schema}-test`,
      entities,
      migrations,
    });
    await dataSource.initialize();
    this.opened.push(dataSource);
    await migrate(dataSource);
    return dataSource;
  }

  async close(): Promise<void> {
    const last = this.opened[this.opened.length - 1];
    if (last?.isInitialized) await dropSchema(last);
    for (const dataSource of this.opened) if (dataSource.isInitialized) await dataSource.destroy();
  }
}
