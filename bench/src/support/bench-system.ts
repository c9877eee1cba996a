import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import {
  entryOf,
  memoryLimitOf,
  SERVICE_NAMES,
  upstreamsOf,
  upstreamUrlVariable,
  type ServiceName,
} from '@cms/config';
import { topicNames, type Topics } from '@cms/contracts';
import { createKafka, ensureTopics, topicSpecs } from '@cms/kafka';
import {
  freePort,
  spawnService,
  stopProcess,
  testStack,
  waitServiceReady,
  type TestStack,
} from '@cms/testing';
import type { Kafka } from 'kafkajs';
import { Client } from 'pg';

export type { ServiceName };

export const ROOT = join(__dirname, '..', '..', '..');
export const BENCH_DIR = join(ROOT, '.local', 'bench');

export interface Tenant {
  workspaceId: number;
  keyId: number;
  key: string;
}

interface Running {
  name: ServiceName;
  port: number;
  schema: string;
  env: Record<string, string>;
  child: ChildProcess;
}

export interface BenchSystemOptions {
  /** Extra environment for every service (e.g. the webhook receiver's CA and network). */
  env: Record<string, string>;
  /** Node options for the services, e.g. the CPU profiler preload. */
  nodeArgs: string[];
}

/**
 * The real services as processes from dist/, with the production topic layout under a namespace of
 * their own and schemas of their own, so the bench never reads or writes the system's data; `stop`
 * removes both. Same approach as the end-to-end harness (tests/e2e), which the bench may not import.
 */
export class BenchSystem {
  readonly adminToken = randomBytes(24).toString('base64url');
  readonly secretsKey = randomBytes(32).toString('base64');
  readonly kafka: Kafka;
  private readonly running = new Map<ServiceName, Running>();
  private readonly ports = new Map<ServiceName, number>();
  private readonly logDir: string;

  private constructor(
    readonly stack: TestStack,
    readonly namespace: string,
    readonly topics: Topics,
    private readonly options: BenchSystemOptions,
  ) {
    this.kafka = createKafka({ brokers: stack.kafkaBrokers, clientId: 'bench' });
    this.logDir = join(BENCH_DIR, 'logs', namespace);
  }

  /** Topics (the layout `ops topics create` makes) and free ports; no service runs yet. */
  static async prepare(namespace: string, options: BenchSystemOptions): Promise<BenchSystem> {
    if (!existsSync(join(ROOT, 'dist', 'apps', 'gateway', 'src', 'main.js'))) {
      throw new Error('dist/ is missing: run `npm run build` (npm run bench does unless --no-build)');
    }
    const stack = await testStack();
    const system = new BenchSystem(stack, namespace, topicNames(namespace), options);
    mkdirSync(system.logDir, { recursive: true });
    const admin = system.kafka.admin();
    await admin.connect();
    try {
      await ensureTopics(admin, topicSpecs({}, system.topics));
    } finally {
      await admin.disconnect();
    }
    for (const name of SERVICE_NAMES) system.ports.set(name, await freePort());
    return system;
  }

  get url(): string {
    return this.baseUrl('gateway');
  }

  get logs(): string {
    return this.logDir;
  }

  baseUrl(name: ServiceName): string {
    return `http://127.0.0.1:${this.ports.get(name)}`;
  }

  schema(name: ServiceName | 'bench'): string {
    return `${name.replace(/-/g, '_')}_${this.namespace.replace(/-/g, '_')}`.slice(0, 63);
  }

  /** pid → service name, for the CPU meter. */
  pids(): Map<number, string> {
    const pids = new Map<number, string>();
    for (const service of this.running.values()) {
      if (service.child.pid !== undefined && service.child.exitCode === null) {
        pids.set(service.child.pid, service.name);
      }
    }
    return pids;
  }

  pid(name: ServiceName): number | undefined {
    return this.running.get(name)?.child.pid;
  }

  /** The environment a service (or an ops command acting for it) runs with. */
  serviceEnv(name: ServiceName): Record<string, string> {
    return {
      HTTP_PORT: String(this.ports.get(name)),
      DATABASE_URL: this.stack.databaseUrl,
      DATABASE_SCHEMA: this.schema(name),
      KAFKA_BROKERS: this.stack.kafkaBrokers.join(','),
      REDIS_URL: this.stack.redisUrl,
      TOPIC_NAMESPACE: this.namespace,
      ADMIN_TOKEN: this.adminToken,
      SECRETS_KEY: this.secretsKey,
      LOG_LEVEL: 'info',
      // Each service within the memory its base deployment gives it (its heap: nodeMemoryArgs).
      MEMORY_LIMIT_MIB: String(memoryLimitOf(entryOf(name))),
      BENCH_PROFILE_NAME: name,
      ...(process.env.KAFKA_FETCH_WAIT_MS ? { KAFKA_FETCH_WAIT_MS: process.env.KAFKA_FETCH_WAIT_MS } : {}),
      ...Object.fromEntries(
        upstreamsOf('gateway').map((upstream) => [
          upstreamUrlVariable(upstream.name),
          this.baseUrl(upstream.name),
        ]),
      ),
      ...this.options.env,
    };
  }

  isRunning(name: ServiceName): boolean {
    const child = this.running.get(name)?.child;
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  }

  async start(...names: ServiceName[]): Promise<void> {
    for (const name of names) {
      const service: Running = {
        name,
        port: this.ports.get(name)!,
        schema: this.schema(name),
        env: this.serviceEnv(name),
        child: this.spawn(name, this.serviceEnv(name)),
      };
      this.running.set(name, service);
    }
    await Promise.all(names.map((name) => this.waitReady(name)));
  }

  /** SIGTERM and wait: the service finishes what it is doing, as in a deployment's stop. */
  async stopService(name: ServiceName): Promise<void> {
    const service = this.running.get(name);
    if (!service) return;
    await signal(service.child, 'SIGTERM');
    this.running.delete(name);
  }

  signal(name: ServiceName, sig: NodeJS.Signals): void {
    this.running.get(name)?.child.kill(sig);
  }

  /** Stops every service, drops the bench schemas and deletes the bench topics. */
  async stop(): Promise<void> {
    await Promise.all([...this.running.keys()].map((name) => this.stopService(name)));
    const client = new Client({ connectionString: this.stack.databaseUrl });
    await client.connect();
    try {
      for (const name of [...SERVICE_NAMES, 'bench'] as const) {
        await client.query(`DROP SCHEMA IF EXISTS "${this.schema(name)}" CASCADE`);
      }
    } finally {
      await client.end();
    }
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const existing = new Set(await admin.listTopics());
      const ours = existing.size > 0 ? [...existing].filter((t) => t.startsWith(`${this.namespace}.`)) : [];
      if (ours.length > 0) await admin.deleteTopics({ topics: ours });
      const groups = (await admin.listGroups()).groups
        .map((group) => group.groupId)
        .filter((id) => id.startsWith(`${this.namespace}.`) || id.startsWith(`bench-${this.namespace}`));
      if (groups.length > 0) await admin.deleteGroups(groups).catch(() => undefined);
    } finally {
      await admin.disconnect();
    }
  }

  /** A call to the public API with a workspace's key. */
  async api<T>(
    tenant: Tenant,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    return this.call<T>(method, path, { authorization: `Bearer ${tenant.key}` }, body);
  }

  /** A POST with a workspace's key that must answer `status` (201 unless said); answers the body's `data`. */
  async create<T>(tenant: Tenant, path: string, body: unknown, status = 201): Promise<T> {
    const answer = await this.api<{ data: T }>(tenant, 'POST', path, body);
    if (answer.status !== status) {
      throw new Error(`POST ${path} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 500)}`);
    }
    return answer.body.data;
  }

  async admin<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    return this.call<T>(method, path, { authorization: `Bearer ${this.adminToken}` }, body);
  }

  async call<T>(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
  }

  /** `count` workspaces on `plan`, each with one key, made through the operator API a few at a time. */
  async tenants(count: number, plan: string): Promise<Tenant[]> {
    const made: Tenant[] = [];
    const one = async (index: number): Promise<Tenant> => {
      const workspace = await this.admin<{ data: { id: number } }>('POST', '/admin/v1/workspaces', {
        name: `bench ${index}`,
        plan,
      });
      if (workspace.status !== 201) throw new Error(`workspace not created: ${workspace.status}`);
      const key = await this.admin<{ data: { id: number; key: string } }>(
        'POST',
        `/admin/v1/workspaces/${workspace.body.data.id}/api-keys`,
        { name: 'bench', permissions: ['read', 'create', 'update', 'delete'] },
      );
      if (key.status !== 201) throw new Error(`key not created: ${key.status}`);
      return { workspaceId: workspace.body.data.id, keyId: key.body.data.id, key: key.body.data.key };
    };
    for (let start = 0; start < count; start += 16) {
      const batch = Array.from({ length: Math.min(16, count - start) }, (_, i) => one(start + i));
      made.push(...(await Promise.all(batch)));
    }
    return made;
  }

  private logFile(name: ServiceName): string {
    return join(this.logDir, `${name}.log`);
  }

  private spawn(name: ServiceName, env: Record<string, string>): ChildProcess {
    return spawnService(name, {
      root: ROOT,
      env,
      logFile: this.logFile(name),
      nodeArgs: this.options.nodeArgs,
    });
  }

  private async waitReady(name: ServiceName): Promise<void> {
    const service = this.running.get(name)!;
    await waitServiceReady(name, service.child, service.port, {
      logFile: this.logFile(name),
      timeoutMs: 90000,
    });
  }
}

/** Sends `sig` to a process and waits for its exit (SIGKILL after 20 s). */
export function signal(child: ChildProcess, sig: NodeJS.Signals, killAfterMs = 20000): Promise<void> {
  return stopProcess(child, sig, killAfterMs);
}
