import type { Logger } from 'pino';
import { DataSource, type DataSourceOptions, type EntitySchema, type MixedList } from 'typeorm';

export interface DatabaseConfig {
  /** postgres://user@host:port/db */
  url: string;
  /** The service's own schema; every unqualified name in SQL resolves to it. */
  schema: string;
  /** Shown in pg_stat_activity, so an operator can tell the services' connections apart. */
  applicationName: string;
  // TypeORM's own type for entity lists.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
  poolSize?: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) {
    throw new Error(`schema name ${JSON.stringify(schema)} must match ${SCHEMA_NAME.source}`);
  }
}

export function dataSourceOptions(config: DatabaseConfig): DataSourceOptions {
  assertSchemaName(config.schema);
  return {
    type: 'postgres',
    url: config.url,
    schema: config.schema,
    applicationName: config.applicationName,
    entities: config.entities,
    migrations: config.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    // Schema changes happen only through reviewed migrations.
    synchronize: false,
    migrationsRun: false,
    logging: false,
    poolSize: config.poolSize ?? 10,
    extra: {
      // Raw SQL in migrations and repositories is written without a schema prefix, so one service can
      // be rebuilt into a fresh schema (blue/green replay) without touching its SQL.
      options: `-c search_path=${config.schema},public`,
      connectionTimeoutMillis: 5000,
    },
  };
}

export function createDataSource(config: DatabaseConfig): DataSource {
  return new DataSource(dataSourceOptions(config));
}

/** Creates the schema and runs pending migrations, one replica at a time. */
export async function migrate(dataSource: DataSource): Promise<string[]> {
  const schema = schemaOf(dataSource);
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [`migrations:${schema}`]);
    try {
      // Under the lock: two first starts on a new schema would otherwise race to create it.
      await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((migration) => migration.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrations:${schema}`]);
    }
  } finally {
    await runner.release();
  }
}

/**
 * Connects, then migrates: what every service does at boot. `connect` runs the connecting (a new data
 * source each time it is called), so a caller can try it again while the database is not there yet; a
 * migration that fails is not tried again.
 */
export async function openDatabase(
  config: DatabaseConfig,
  connect: (open: () => Promise<DataSource>) => Promise<DataSource> = (open) => open(),
): Promise<DataSource> {
  const dataSource = await connect(async () => {
    const opening = createDataSource(config);
    await opening.initialize();
    return opening;
  });
  try {
    await migrate(dataSource);
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
  return dataSource;
}

/**
 * The boot's migration step on its own (`main.js migrate`), so a platform can migrate before a rollout:
 * the same migrations under the same lock, then the connections closed. Returns the names applied.
 */
export async function migrateDatabase(config: DatabaseConfig): Promise<string[]> {
  const dataSource = createDataSource(config);
  await dataSource.initialize();
  try {
    return await migrate(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/**
 * `main.js migrate` of a service: migrates the database `database()` describes (reading it is part of
 * the command, so a bad setting is reported like a failed migration), logs what it applied, and
 * resolves to the process's exit code.
 */
export async function migrateCommand(logger: Logger, database: () => DatabaseConfig): Promise<number> {
  let schema: string | undefined;
  try {
    const config = database();
    schema = config.schema;
    const applied = await migrateDatabase(config);
    logger.info(
      { schema, applied },
      applied.length === 0 ? 'no migration to apply: the schema is up to date' : 'migrations applied',
    );
    return 0;
  } catch (error) {
    logger.error({ err: error, schema }, 'migration failed');
    return 1;
  }
}

/**
 * The SQL that would bring the database in line with the entities after every migration ran.
 * Empty when migrations and entities agree; CI fails otherwise.
 */
export async function migrationDrift(dataSource: DataSource): Promise<string[]> {
  const sql = await dataSource.driver.createSchemaBuilder().log();
  return sql.upQueries.map((query) => query.query);
}

export function schemaOf(dataSource: DataSource): string {
  const schema = (dataSource.options as { schema?: string }).schema;
  if (!schema) throw new Error('data source has no schema');
  return schema;
}

export async function dropSchema(dataSource: DataSource, schema = schemaOf(dataSource)): Promise<void> {
  assertSchemaName(schema);
  await dataSource.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}
