import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  createEnvelope,
  topicNames,
  type Envelope,
  type RequestAcceptedV1,
  type RequestRejectedV1,
  type TopicKey,
  type Topics,
} from '@cms/contracts';
import {
  BatchingProducer,
  createKafka,
  ensureTopics,
  envelopeRecord,
  topicSpecs,
  type PartitionOffsets,
  type RebuildPlan,
  type TopicLayout,
} from '@cms/kafka';
import { createDataSource, dropSchema } from '@cms/persistence';
import {
  deleteTestTopics,
  freePort,
  spawnService,
  stopProcess,
  TEST_SERVICE_ENV,
  testStack,
  uniqueName,
  waitServiceReady,
  workspaceRoot,
  type TestStack,
} from '@cms/testing';
import type { Admin, Consumer, Kafka } from 'kafkajs';
import pino, { type Logger } from 'pino';
import type { DataSource } from 'typeorm';

import { entitiesOf } from '../infrastructure.module';
import { rebuildService, startService, type RunningService } from '../service-app';
import type { KitConfig, ServiceDefinition } from '../service-definition';

/** An outcome as a peer reads it on the outcome topic. */
export type OutcomeEnvelope = Envelope<RequestAcceptedV1 | RequestRejectedV1>;

export interface ServiceHarnessOptions<C extends KitConfig, O> {
  definition: ServiceDefinition<C, O>;
  /** Begins the namespace of the harness's topics, e.g. `ct`. */
  prefix: string;
  /** Partitions of its topics: a few, so that what several partitions change shows. */
  layout?: Partial<TopicLayout>;
  /** Topics whose records the harness keeps (from the beginning), beside the outcomes. */
  read?: TopicKey[];
  /** Settings of every instance, beside the stack's, its schema, the namespace and its port. */
  env?: Record<string, string>;
  /** Where instances in this process log: silent unless TEST_LOG_LEVEL is set. */
  logger?: Logger;
}

export interface StartOptions<O> {
  /** The harness's schema unless given (see newSchema). */
  schema?: string;
  /** Settings over the harness's. */
  env?: Record<string, string>;
  /** What the test swaps in (the definition's `overrides`). */
  overrides?: O;
}

/** An instance started as a process of its own, from its sources, as a deployment starts it. */
export interface ServiceProcess {
  url: string;
  /** SIGKILL: no shutdown hook runs, nothing is flushed. */
  kill(): Promise<void>;
  /** SIGTERM: its graceful shutdown (SIGKILL after 10 s). */
  stop(): Promise<void>;
}

const SPAWN_READY_MS = 60_000;

/**
 * A service of its own for one suite, and the peers around it played by the test: topics under a
 * unique namespace, a unique schema per instance, instances started in this process (startService)
 * or as processes (spawnService); request records produced as the gateway produces them, facts as
 * their owners publish them, and what a peer reads (outcomes, facts) kept to wait on.
 */
export class ServiceHarness<C extends KitConfig, O = undefined> {
  /** By correlation id; the first when a request is answered again (by a rebuilding instance). */
  private readonly outcomes = new Map<string, OutcomeEnvelope>();
  private readonly kept = new Map<string, Envelope<Record<string, unknown>>[]>();
  private readonly listeners = new Set<() => void>();
  private readonly instances = new Set<RunningService>();
  private readonly processes = new Set<ServiceProcess>();
  private readonly schemas: string[];
  private rebuilds = 0;

  private constructor(
    private readonly options: ServiceHarnessOptions<C, O>,
    readonly stack: TestStack,
    readonly namespace: string,
    readonly topics: Topics,
    readonly kafka: Kafka,
    readonly admin: Admin,
    private readonly producer: BatchingProducer,
    private readonly reader: Consumer,
    /** The schema instances use unless told another. */
    readonly schema: string,
    /** SQL on `schema`, as the test's own connection. */
    readonly db: DataSource,
  ) {
    this.schemas = [schema];
    for (const key of options.read ?? []) this.kept.set(topics[key], []);
  }

  /** Creates the topics and starts reading; no instance runs yet. */
  static async start<C extends KitConfig, O>(
    options: ServiceHarnessOptions<C, O>,
  ): Promise<ServiceHarness<C, O>> {
    const { definition } = options;
    const stack = await testStack();
    const namespace = uniqueName(options.prefix).replace(/_/g, '-');
    const topics = topicNames(namespace);
    const kafka = createKafka({ brokers: stack.kafkaBrokers, clientId: `${definition.name}-test` });
    const admin = kafka.admin();
    await admin.connect();
    await ensureTopics(
      admin,
      topicSpecs(
        { requestPartitions: 2, factPartitions: 2, outcomePartitions: 1, ...options.layout },
        topics,
      ),
    );
    const producer = new BatchingProducer(kafka);
    await producer.connect();
    const reader = kafka.consumer({ groupId: `${namespace}-reader`, maxWaitTimeInMs: 20 });
    const schema = uniqueName(definition.defaultSchema);
    const db = createDataSource({
      url: stack.databaseUrl,
      schema,
      applicationName: `${definition.name}-test`,
      // For their tables' metadata (projectionRows); nothing is synchronised.
      entities: entitiesOf(definition),
      migrations: [],
      poolSize: 2,
    });
    await db.initialize();
    const harness = new ServiceHarness(
      options,
      stack,
      namespace,
      topics,
      kafka,
      admin,
      producer,
      reader,
      schema,
      db,
    );
    await reader.connect();
    await reader.subscribe({ topics: [topics.outcomes, ...harness.kept.keys()], fromBeginning: true });
    await reader.run({ eachMessage: async ({ topic, message }) => harness.collect(topic, message.value) });
    return harness;
  }

  /** The settings of an instance on `schema`, listening on `port` (0: any free one). */
  private env(schema = this.schema, port = 0, env: Record<string, string> = {}): Record<string, string> {
    return {
      HTTP_PORT: String(port),
      DATABASE_URL: this.stack.databaseUrl,
      DATABASE_SCHEMA: schema,
      KAFKA_BROKERS: this.stack.kafkaBrokers.join(','),
      TOPIC_NAMESPACE: this.namespace,
      ...TEST_SERVICE_ENV,
      ...this.options.env,
      ...env,
    };
  }

  /** The configuration an instance on the harness's schema reads. */
  private config(): C {
    return this.options.definition.loadConfig(this.env(this.schema, 0), {});
  }

  /** A schema for another instance (a rebuild beside the first), dropped by stop. */
  newSchema(): string {
    const schema = uniqueName(this.options.definition.defaultSchema);
    this.schemas.push(schema);
    return schema;
  }

  /** An instance in this process, through the kit's startService. */
  async startService(options: StartOptions<O> = {}): Promise<RunningService> {
    const config = this.options.definition.loadConfig(this.env(options.schema, 0, options.env), {});
    const service = await startService(this.options.definition, config, this.logger, options.overrides);
    this.instances.add(service);
    return service;
  }

  async stopService(service: RunningService): Promise<void> {
    this.instances.delete(service);
    await service.close();
  }

  /** An instance as a process of its own (`main.ts start`, from the sources), once it is ready. */
  async spawnService(options: Omit<StartOptions<O>, 'overrides'> = {}): Promise<ServiceProcess> {
    const { name } = this.options.definition;
    const root = workspaceRoot();
    const port = await freePort();
    const logFile = join(tmpdir(), `${uniqueName(name)}.log`);
    const child = spawnService(name, {
      root,
      script: join('apps', name, 'src', 'main.ts'),
      nodeArgs: ['-r', '@swc-node/register'],
      env: {
        ...this.env(options.schema, port, options.env),
        NODE_OPTIONS: '--no-warnings',
        SWC_NODE_PROJECT: join(root, 'tsconfig.json'),
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      },
      logFile,
    });
    const instance: ServiceProcess = {
      url: `http://127.0.0.1:${port}`,
      kill: async () => {
        this.processes.delete(instance);
        await stopProcess(child, 'SIGKILL', 0);
      },
      stop: async () => {
        this.processes.delete(instance);
        await stopProcess(child, 'SIGTERM', 10_000);
      },
    };
    this.processes.add(instance);
    try {
      await waitServiceReady(name, child, port, { logFile, timeoutMs: SPAWN_READY_MS });
    } catch (error) {
      await instance.kill();
      throw new Error(`${String(error)}\n${readFileSync(logFile, 'utf8').slice(-4000)}`);
    }
    return instance;
  }

  /**
   * The projection rebuilt from the log into a new schema, as `ops replay --blue-green` builds one: the
   * kit's rebuild (`main.js rebuild`) up to where each consumer's topics end now, publishing nothing
   * (the live instance published it all). Resolves with the schema once the rebuild has stopped.
   */
  async rebuild(): Promise<string> {
    const { definition } = this.options;
    const schema = this.newSchema();
    const live = this.config();
    const consumers: RebuildPlan['consumers'] = {};
    for (const declaration of definition.consumers) {
      const until: PartitionOffsets = {};
      for (const topic of declaration.topics(live)) {
        const ends = await this.admin.fetchTopicOffsets(topic);
        until[topic] = Object.fromEntries(ends.map(({ partition, high }) => [String(partition), high]));
      }
      consumers[`${live.consumerName}${declaration.suffix}`] = { until, horizon: until };
    }
    this.rebuilds += 1;
    const plan: RebuildPlan = { group: `test${this.rebuilds}`, publish: false, consumers };
    const config = definition.loadConfig(
      // One process: the shares of a rebuild are processes started from main.js, which a test does not run.
      this.env(schema, 0, { REBUILD_PLAN: JSON.stringify(plan), REBUILD_PROCESSES: '1' }),
      { rebuild: true },
    );
    await rebuildService(definition, config, config.rebuild!, this.logger);
    return schema;
  }

  /** Every row of the projection's tables in `schema` (the harness's unless given), by table, in key order. */
  async projectionRows(schema = this.schema): Promise<Record<string, unknown[]>> {
    const rows: Record<string, unknown[]> = {};
    for (const entity of this.options.definition.projection) {
      const { tableName, primaryColumns } = this.db.getMetadata(entity);
      const order = primaryColumns.map((column) => `"${column.databaseName}"`).join(', ');
      rows[tableName] = await this.db.query(`SELECT * FROM "${schema}"."${tableName}" ORDER BY ${order}`);
    }
    return rows;
  }

  /** A request record as the gateway makes it. */
  envelope(type: string, workspaceId: number, data: object, options: { time?: string } = {}): Envelope {
    return createEnvelope({
      type,
      source: 'gateway',
      workspaceid: String(workspaceId),
      data,
      ...(options.time !== undefined ? { time: options.time } : {}),
    });
  }

  /** Produces request records back to back (one produce request), keyed by workspace, as the gateway does. */
  async produce(...envelopes: Envelope[]): Promise<void> {
    await this.producer.send(
      this.topics.requests,
      envelopes.map((envelope) => ({
        key: envelope.workspaceid,
        value: JSON.stringify(envelope),
        headers: { ce_type: envelope.type, correlation_id: envelope.correlationid },
      })),
    );
  }

  /** Publishes records on `topic` as the service that owns it does (through its outbox). */
  async publish(topic: string, envelopes: Envelope[]): Promise<void> {
    await this.producer.send(
      topic,
      envelopes.map((envelope) => envelopeRecord(topic, envelope)),
    );
  }

  async outcomeOf(envelope: Envelope, timeoutMs = 15_000): Promise<OutcomeEnvelope> {
    return this.waitFor(
      `the outcome of ${envelope.type} ${envelope.id}`,
      () => this.outcomes.get(envelope.correlationid),
      timeoutMs,
    );
  }

  /** Produces one request and waits for its outcome, as the gateway's write path does. */
  async request(
    type: string,
    workspaceId: number,
    data: object,
    options: { time?: string; timeoutMs?: number } = {},
  ): Promise<OutcomeEnvelope> {
    const envelope = this.envelope(type, workspaceId, data, options);
    await this.produce(envelope);
    return this.outcomeOf(envelope, options.timeoutMs);
  }

  /** The records read so far on a topic of `read`, oldest first (the array grows as they come). */
  recordsOn(topic: string): Envelope<Record<string, unknown>>[] {
    const records = this.kept.get(topic);
    if (!records) throw new Error(`the harness does not read ${topic}`);
    return records;
  }

  /** Resolves with what `probe` finds, looking again whenever a record is read. */
  async waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
    const found = probe();
    if (found !== undefined) return found;
    return new Promise<T>((resolve, reject) => {
      const listener = (): void => {
        const value = probe();
        if (value === undefined) return;
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolve(value);
      };
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      this.listeners.add(listener);
    });
  }

  /** Stops every instance and process, then removes the schemas and topics. */
  async stop(): Promise<void> {
    for (const instance of this.processes) await instance.kill();
    for (const service of this.instances) await this.stopService(service);
    await this.reader.disconnect();
    await this.producer.disconnect();
    for (const schema of this.schemas) await dropSchema(this.db, schema);
    await this.db.destroy();
    await deleteTestTopics(this.admin, Object.values(this.topics));
    await this.admin.disconnect();
  }

  /** Where instances in this process log: silent unless TEST_LOG_LEVEL is set. */
  private get logger(): Logger {
    return this.options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  }

  private collect(topic: string, value: Buffer | null): void {
    const text = value?.toString('utf8') ?? 'null';
    if (topic === this.topics.outcomes) {
      const outcome = JSON.parse(text) as OutcomeEnvelope;
      if (!this.outcomes.has(outcome.correlationid)) this.outcomes.set(outcome.correlationid, outcome);
    } else {
      this.kept.get(topic)?.push(JSON.parse(text) as Envelope<Record<string, unknown>>);
    }
    for (const listener of [...this.listeners]) listener();
  }
}
