import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { upstreamsOf, upstreamUrlVariable, type ServiceName } from '@cms/config';
import { topicNames, type Topics } from '@cms/contracts';
import { createKafka, ensureTopics, topicSpecs } from '@cms/kafka';
import {
  freePort,
  spawnService,
  stopProcess,
  TEST_SERVICE_ENV,
  testStack,
  uniqueName,
  waitServiceReady,
  type TestStack,
} from '@cms/testing';
import { Client } from 'pg';

import { ApiContract } from './contract';

export type { ServiceName };

const ROOT = join(__dirname, '..', '..', '..');
export const ADMIN_TOKEN = 'e2e-admin-token-0123456789abcdef';
/** The SECRETS_KEY of every system under test (base64 of 32 bytes): seals integration secrets. */
export const SECRETS_KEY = randomBytes(32).toString('base64');

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  /** JSON (an object), a string as it is, or a multipart form (FormData: fetch writes its content type). */
  body?: unknown;
  key?: string;
  admin?: boolean;
  headers?: Record<string, string>;
  /** Gives up the call (the promise rejects) when it fires. */
  signal?: AbortSignal;
  /** The base URL called (another gateway replica); the system's gateway when absent. */
  url?: string;
}

interface Running {
  name: ServiceName;
  port: number;
  schema: string;
  env: Record<string, string>;
  child: ChildProcess;
}

/** An answer the gateway's OpenAPI document does not describe: its status, a header it promises, or its body. */
export class UndocumentedAnswer extends Error {
  constructor(readonly problems: string[]) {
    super(`the answer differs from the OpenAPI document:\n  ${problems.join('\n  ')}`);
    this.name = 'UndocumentedAnswer';
  }
}

/**
 * The real services as separate processes (from dist/, built by `npm test` or `npm run build`), on
 * topics under a namespace of their own and schemas of their own, so suites never see each other.
 */
export class System {
  private readonly running = new Map<ServiceName, Running>();
  private readonly replicas: ChildProcess[] = [];
  private contractReading: Promise<ApiContract> | undefined;

  private constructor(
    readonly stack: TestStack,
    readonly namespace: string,
    readonly topics: Topics,
    private readonly extraEnv: Record<string, string>,
  ) {}

  /** `stack` defaults to the shared test stack; a suite that breaks its stack brings its own. */
  static async start(
    services: ServiceName[],
    env: Record<string, string> = {},
    stack?: TestStack,
  ): Promise<System> {
    if (!existsSync(join(ROOT, 'dist', 'apps', 'gateway', 'src', 'main.js'))) {
      throw new Error('dist/ is missing: run `npm run build` (npm test does) before the end-to-end suites');
    }
    stack ??= await testStack();
    const namespace = uniqueName('e2e').replace(/_/g, '-');
    const topics = topicNames(namespace);
    const admin = createKafka({ brokers: stack.kafkaBrokers, clientId: 'e2e' }).admin();
    await admin.connect();
    await ensureTopics(
      admin,
      topicSpecs({ requestPartitions: 4, factPartitions: 4, outcomePartitions: 2 }, topics),
    );
    await admin.disconnect();
    const system = new System(stack, namespace, topics, env);
    const ports = new Map<ServiceName, number>();
    for (const name of services) ports.set(name, await freePort());
    for (const name of services) system.launch(name, ports);
    await Promise.all(services.map((name) => system.waitReady(name)));
    return system;
  }

  get url(): string {
    return this.baseUrl('gateway');
  }

  baseUrl(name: ServiceName): string {
    const service = this.running.get(name);
    if (!service) throw new Error(`${name} is not part of this system`);
    return `http://127.0.0.1:${service.port}`;
  }

  /** Sends a request through the gateway; an answer the OpenAPI document does not describe throws UndocumentedAnswer. */
  async call<T = unknown>(method: string, path: string, options: CallOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.admin) headers.authorization = `Bearer ${ADMIN_TOKEN}`;
    if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
    let body: string | FormData | undefined;
    if (options.body instanceof FormData) {
      body = options.body;
    } else if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${options.url ?? this.url}${path}`, {
      method,
      headers,
      // An answer is checked as it is: a redirect (a tracked link's 302) is not followed.
      redirect: 'manual',
      ...(body !== undefined ? { body } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const text = await response.text();
    // JSON when the answer says it is (application/json, application/vnd.api+json, …), the text otherwise.
    const json = /[/+]json\b/.test(response.headers.get('content-type') ?? '');
    let parsed: unknown = undefined;
    if (text !== '') {
      try {
        parsed = json ? JSON.parse(text) : text;
      } catch {
        parsed = text;
      }
    }
    const answer = { status: response.status, headers: response.headers, body: parsed as T };
    const problems = (await this.contract()).check(method, path, answer);
    if (problems.length > 0) {
      throw new UndocumentedAnswer(problems);
    }
    return answer;
  }

  /** The gateway's own document, read once: every answer of `call` is checked against it. */
  private contract(): Promise<ApiContract> {
    this.contractReading ??= fetch(`${this.url}/openapi.json`).then(async (response) => {
      if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
      return new ApiContract(
        (await response.json()) as ConstructorParameters<typeof ApiContract>[0],
        this.namespace,
      );
    });
    return this.contractReading;
  }

  /** A workspace on `plan` and a key with `permissions`, through the operator API. */
  async tenant(
    plan = 'pro',
    permissions = ['read', 'create', 'update', 'delete'],
  ): Promise<{ workspaceId: number; key: string; keyId: number }> {
    const workspace = await this.call<{ data: { id: number } }>('POST', '/admin/v1/workspaces', {
      admin: true,
      body: { name: `ws ${plan}`, plan },
    });
    if (workspace.status !== 201)
      throw new Error(`workspace not created: ${workspace.status} ${JSON.stringify(workspace.body)}`);
    const key = await this.call<{ data: { id: number; key: string } }>(
      'POST',
      `/admin/v1/workspaces/${workspace.body.data.id}/api-keys`,
      {
        admin: true,
        body: { name: 'e2e', permissions },
      },
    );
    if (key.status !== 201) throw new Error(`key not created: ${key.status} ${JSON.stringify(key.body)}`);
    return { workspaceId: workspace.body.data.id, key: key.body.data.key, keyId: key.body.data.id };
  }

  /** The Postgres schema the service owns. */
  schema(name: ServiceName): string {
    const service = this.running.get(name);
    if (!service) throw new Error(`${name} is not part of this system`);
    return service.schema;
  }

  /** The process id of the service's current process, while it runs; undefined once it exited. */
  pid(name: ServiceName): number | undefined {
    const child = this.running.get(name)?.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return undefined;
    return child.pid;
  }

  /** SIGKILL: no goodbye, no flushing. */
  async kill(name: ServiceName): Promise<void> {
    const service = this.running.get(name);
    if (!service) return;
    await this.signal(service.child, 'SIGKILL');
  }

  async restart(name: ServiceName): Promise<void> {
    const service = this.running.get(name);
    if (!service) throw new Error(`${name} is not part of this system`);
    await this.signal(service.child, 'SIGTERM');
    service.child = this.spawn(service);
    await this.waitReady(name);
  }

  /** SIGTERM, and the service stays down until `resume`. */
  async halt(name: ServiceName): Promise<void> {
    const service = this.running.get(name);
    if (!service) throw new Error(`${name} is not part of this system`);
    await this.signal(service.child, 'SIGTERM');
  }

  async resume(name: ServiceName): Promise<void> {
    const service = this.running.get(name);
    if (!service) throw new Error(`${name} is not part of this system`);
    if (service.child.exitCode === null && service.child.signalCode === null)
      throw new Error(`${name} is still running`);
    service.child = this.spawn(service);
    await this.waitReady(name);
  }

  /**
   * One more process of a running service, with the same environment (schema, topics, consumer group)
   * on a port of its own, as a second replica behind a load balancer would run; stopped with the system.
   */
  async replica(name: ServiceName): Promise<string> {
    const service = this.running.get(name);
    if (!service) throw new Error(`${name} is not part of this system`);
    const port = await freePort();
    const replica: Running = {
      ...service,
      port,
      env: { ...service.env, HTTP_PORT: String(port) },
      child: undefined as unknown as ChildProcess,
    };
    const logFile = join(ROOT, '.local', 'logs', 'e2e', `${this.namespace}-${name}-${port}.log`);
    replica.child = spawnService(name, { root: ROOT, env: replica.env, logFile });
    this.replicas.push(replica.child);
    await waitServiceReady(name, replica.child, port, { logFile, timeoutMs: 60000 });
    return `http://127.0.0.1:${port}`;
  }

  /** The environment the service runs with (what `ops` needs to act on it). */
  envOf(name: ServiceName): Record<string, string> {
    const service = this.running.get(name);
    if (!service) throw new Error(`${name} is not part of this system`);
    return { ...service.env };
  }

  async stop(): Promise<void> {
    await Promise.all([
      ...this.replicas.map((child) => this.signal(child, 'SIGTERM')),
      ...[...this.running.values()].map((service) => this.signal(service.child, 'SIGTERM')),
    ]);
    const client = new Client({ connectionString: this.stack.databaseUrl });
    await client.connect();
    for (const service of this.running.values())
      await client.query(`DROP SCHEMA IF EXISTS "${service.schema}" CASCADE`);
    await client.end();
    const admin = createKafka({ brokers: this.stack.kafkaBrokers, clientId: 'e2e' }).admin();
    await admin.connect();
    await admin.deleteTopics({ topics: Object.values(this.topics) }).catch(() => undefined);
    await admin.disconnect();
  }

  private launch(name: ServiceName, ports: Map<ServiceName, number>): void {
    const schema = `${name.replace(/-/g, '_')}_${this.namespace.replace(/-/g, '_')}`.slice(0, 63);
    const env: Record<string, string> = {
      HTTP_PORT: String(ports.get(name)),
      DATABASE_URL: this.stack.databaseUrl,
      DATABASE_SCHEMA: schema,
      KAFKA_BROKERS: this.stack.kafkaBrokers.join(','),
      REDIS_URL: this.stack.redisUrl,
      TOPIC_NAMESPACE: this.namespace,
      ...TEST_SERVICE_ENV,
      ADMIN_TOKEN,
      SECRETS_KEY,
      LOG_LEVEL: 'info',
      ...Object.fromEntries(
        upstreamsOf('gateway')
          .filter((upstream) => ports.has(upstream.name))
          .map((upstream) => [
            upstreamUrlVariable(upstream.name),
            `http://127.0.0.1:${ports.get(upstream.name)}`,
          ]),
      ),
      ...this.extraEnv,
    };
    const service: Running = {
      name,
      port: ports.get(name)!,
      schema,
      env,
      child: undefined as unknown as ChildProcess,
    };
    service.child = this.spawn(service);
    this.running.set(name, service);
  }

  private logFile(name: ServiceName): string {
    return join(ROOT, '.local', 'logs', 'e2e', `${this.namespace}-${name}.log`);
  }

  private spawn(service: Running): ChildProcess {
    mkdirSync(join(ROOT, '.local', 'logs', 'e2e'), { recursive: true });
    return spawnService(service.name, { root: ROOT, env: service.env, logFile: this.logFile(service.name) });
  }

  private async waitReady(name: ServiceName): Promise<void> {
    const service = this.running.get(name)!;
    await waitServiceReady(name, service.child, service.port, {
      logFile: this.logFile(name),
      timeoutMs: 60000,
    });
  }

  private signal(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
    return stopProcess(child, signal, 15000);
  }
}
