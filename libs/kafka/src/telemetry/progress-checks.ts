/** What `/ready` takes checks from: `ReadinessRegistry` of @cms/http, named here by its shape only. */
export interface ReadinessChecks {
  register(name: string, check: () => boolean | Promise<boolean>): void;
}

/** Anything that can say how long it has had work waiting without moving (a relay, a consumer). */
export interface Stallable {
  stalledMs(now?: number): number;
}

/** How long an outbox or a consumer may sit still while work waits before `/ready` says not-ready. */
export const DEFAULT_STALL_LIMIT_MS = 30_000;

/**
 * `READY_STALL_MS` (tests shorten it), else DEFAULT_STALL_LIMIT_MS. Read here rather than in each
 * service's config so that every service that registers the checks means the same by them.
 */
export function stallLimitMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env['READY_STALL_MS'];
  if (raw === undefined || raw === '') return DEFAULT_STALL_LIMIT_MS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(`READY_STALL_MS must be a positive integer of milliseconds, not ${raw}`);
  }
  return value;
}

/**
 * Registers `<name>-moving` for each: failing once it has had work waiting without moving for
 * `limitMs`. A service stuck that way still answers `/health`, but a load balancer should stop sending
 * it writes it cannot carry out, and an operator sees which part is stuck.
 */
export function registerProgressChecks(
  readiness: ReadinessChecks,
  parts: Record<string, Stallable>,
  limitMs: number = stallLimitMs(),
): void {
  for (const [name, part] of Object.entries(parts)) {
    readiness.register(`${name}-moving`, () => part.stalledMs() < limitMs);
  }
}
