import type { BenchSystem, Tenant } from './bench-system';

/** The gateway's limits (apps/gateway/src/config.ts), a little under them: a minute's requests. */
const PER_KEY = 115;
const PER_WORKSPACE = 590;
/** The limits count in fixed windows of 60 s; no 61 s span over the limit keeps every window under it. */
const WINDOW_MS = 61_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One workspace with several API keys, and calls through them paced so that neither a key (120 a
 * minute) nor the workspace (600 a minute) is refused: a figure that makes hundreds of calls to one
 * workspace measures the call, not a 429. Waiting happens before a call is timed.
 */
export class WorkspaceKeys {
  private readonly sent: number[][];
  private readonly all: number[] = [];
  private turn = 0;

  private constructor(
    private readonly system: BenchSystem,
    readonly tenant: Tenant,
    private readonly keys: string[],
  ) {
    this.sent = keys.map(() => []);
  }

  /** A workspace on `plan` with `count` keys (read, create, update, delete), made through the operator API. */
  static async make(system: BenchSystem, plan: string, count: number): Promise<WorkspaceKeys> {
    const [tenant] = await system.tenants(1, plan);
    const keys = [tenant!.key];
    for (let made = 1; made < count; made += 1) {
      const key = await system.admin<{ data: { key: string } }>(
        'POST',
        `/admin/v1/workspaces/${tenant!.workspaceId}/api-keys`,
        { name: `bench ${made}`, permissions: ['read', 'create', 'update', 'delete'] },
      );
      if (key.status !== 201) throw new Error(`key not created: ${key.status}`);
      keys.push(key.body.data.key);
    }
    return new WorkspaceKeys(system, tenant!, keys);
  }

  get workspaceId(): number {
    return this.tenant.workspaceId;
  }

  /** Waits until the workspace can take `calls` more requests this minute (at most its limit). */
  async room(calls: number): Promise<void> {
    const wanted = Math.min(calls, PER_WORKSPACE);
    for (;;) {
      const now = Date.now();
      prune(this.all, now);
      if (this.all.length + wanted <= PER_WORKSPACE) return;
      await sleep(this.all[this.all.length + wanted - PER_WORKSPACE - 1]! + WINDOW_MS - now + 5);
    }
  }

  /** The authorization header of a key with room, once the workspace has room too; the call counts. */
  async authorization(): Promise<string> {
    for (;;) {
      const now = Date.now();
      prune(this.all, now);
      if (this.all.length < PER_WORKSPACE) {
        for (let tried = 0; tried < this.keys.length; tried += 1) {
          const index = (this.turn + tried) % this.keys.length;
          const sent = this.sent[index]!;
          prune(sent, now);
          if (sent.length < PER_KEY) {
            this.turn = index + 1;
            sent.push(now);
            this.all.push(now);
            return `Bearer ${this.keys[index]}`;
          }
        }
      }
      await sleep(50);
    }
  }

  /** A JSON call to the public API; `ms` is the time from sending it to its whole answer. */
  async call<T>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T; ms: number }> {
    const authorization = await this.authorization();
    const started = performance.now();
    const answer = await this.system.call<T>(method, path, { authorization }, body);
    return { ...answer, ms: performance.now() - started };
  }

  /** A multipart POST of one file in `field`. */
  async upload<T>(
    path: string,
    field: string,
    file: Blob,
    filename: string,
  ): Promise<{ status: number; body: T; ms: number }> {
    const authorization = await this.authorization();
    const form = new FormData();
    form.append(field, file, filename);
    const started = performance.now();
    const response = await fetch(`${this.system.url}${path}`, {
      method: 'POST',
      headers: { authorization },
      body: form,
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: response.status, body: parsed as T, ms: performance.now() - started };
  }
}

/** Drops the times older than the window from the front of an ascending list. */
function prune(times: number[], now: number): void {
  let drop = 0;
  while (drop < times.length && times[drop]! <= now - WINDOW_MS) drop += 1;
  if (drop > 0) times.splice(0, drop);
}
