import type { Env, ServiceBaseConfig } from '@cms/config';
import type { RecordTypeDefinition } from '@cms/contracts';
import type { ChunkHandler, RebuildPlan, RecordContext, RejectedRecord } from '@cms/kafka';
import type { DynamicModule, ForwardReference, Provider, Type } from '@nestjs/common';
import type { Logger } from 'pino';
import type { EntitySchema, MixedList } from 'typeorm';

import type { RebuildShare } from './rebuild-shares';
import type { ServiceHttp } from './service-http';

/** What the kit reads of a service's configuration; each service's own config extends it. */
export interface KitConfig extends ServiceBaseConfig {
  /**
   * Owns the checkpoints of the service's first consumer and prefixes the others'; names the consumer
   * groups. A blue/green rebuild runs a second instance under another name (and schema).
   */
  consumerName: string;
  /** How long the broker waits for a silent consumer before handing its partitions to another. */
  kafkaSessionTimeoutMs: number;
  /** Set when started as `main.js rebuild` (by `ops replay`): what to rebuild, from REBUILD_PLAN. */
  rebuild?: RebuildPlan;
  /** The share of the partitions this process of a rebuild applies (services that rebuild in several). */
  rebuildShare?: RebuildShare;
}

type ModuleImport = Type | DynamicModule | Promise<DynamicModule> | ForwardReference;
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type EntityClass = Function | EntitySchema;

/** One Kafka consumer of the service, with checkpoints of its own. */
export interface ConsumerDeclaration<C extends KitConfig> {
  /** Appended to `config.consumerName` for the checkpoint owner and group ('' for the first one). */
  suffix: string;
  /** The `component` of its log lines and its readiness check, e.g. `requests-consumer`. */
  component: string;
  topics(config: C): string[];
  /** The Nest transport its `@EventPattern` handlers are bound to, when the service has several. */
  transportId?: symbol;
  /** Provider of the handler that applies consecutive records of a partition together. */
  chunk?: Type<ChunkHandler>;
  /** Lets fetches gather for 20 ms: for consumers most of whose records are read past. */
  gatherFetch?: boolean;
  /**
   * A request that can never be applied still gets an answer, so its client is not left waiting: a
   * rejected outcome with status 500 and the dead letter's error id.
   */
  answersRequests?: boolean;
  /**
   * Runs too in the transaction that dead-letters a record (after its answer, when the consumer
   * answers requests): for the facts others wait for whatever becomes of the record, such as the
   * contacts service's refusal of an import's chunk, which ends the import's job.
   */
  onRejected?(rejected: RejectedRecord, context: RecordContext, config: C): void | Promise<void>;
  /** Settings of a rebuild that has the machine to itself. */
  rebuild?: { transactionsConcurrently?: number; maxRecordsPerTransaction?: number };
}

/** Work the live service does in the background, beside its consumers: a delivery worker, a scheduler. */
export interface BackgroundWorker {
  start(): void;
  /** Lets the work in hand finish; resolves before the service's connections close. */
  stop(): Promise<void>;
  readonly isRunning: boolean;
}

export interface WorkerDeclaration {
  /** The `component` of its readiness check, e.g. `delivery-worker`. */
  component: string;
  /** Its provider, from one of the service's modules. */
  worker: Type<BackgroundWorker>;
}

/**
 * Everything a service is, declared once: the kit turns it into the infrastructure module, `main.js
 * start|migrate|rebuild`, readiness, metrics, graceful shutdown and the test harness.
 */
export interface ServiceDefinition<C extends KitConfig, O = undefined> {
  /** As in the service catalog: log lines, Kafka client ids, application names. */
  name: string;
  /** The schema its tables live in when DATABASE_SCHEMA is not set. */
  defaultSchema: string;
  /** The `source` of the records it publishes. */
  source: string;
  /** The injection token its configuration is provided under. */
  configToken: symbol;
  loadConfig(env: Env, options: { rebuild?: boolean }): C;
  /** Tables derived from the log: a rebuild empties and reproduces them row for row. */
  projection: EntityClass[];
  /** Tables that are not derived from the log (jobs, counters): a rebuild keeps them. */
  jobs?: EntityClass[];
  /** The service's own migrations, after the backbone's plumbing. */
  migrations: MixedList<Type | string>;
  /** Every record type its consumers read. */
  recordTypes(): RecordTypeDefinition[];
  consumers: Array<ConsumerDeclaration<C>>;
  /** Its HTTP and domain modules; `overrides` are what a test swaps in (none in production). */
  modules(config: C, overrides: O | undefined): ModuleImport[];
  /** Providers of the whole service, next to the infrastructure's (global, like them). */
  providers?(config: C, logger: Logger): Provider[];
  /** Controllers outside any module (e.g. a consumer handing records to several modules' use cases). */
  controllers?: Type[];
  /**
   * Started once the consumers listen, stopped first on shutdown; never in a rebuild, which only
   * applies the log.
   */
  workers?: WorkerDeclaration[];
  /** Its HTTP server's own settings, when it needs any. */
  http?: ServiceHttp;
}
