import { type BeforeApplicationShutdown, Injectable } from '@nestjs/common';

export type ReadinessCheck = () => Promise<boolean> | boolean;

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, 'ok' | 'failing'>;
  failing: string[];
}

/** The reason reported once shutdown has begun, so the load balancer stops sending traffic first. */
export const SHUTTING_DOWN_CHECK = 'shutting_down';

/**
 * Where modules say what "ready" means for them (broker connected, consumer assigned, database
 * reachable). A check that throws, rejects or outlives the timeout counts as failing.
 */
@Injectable()
export class ReadinessRegistry implements BeforeApplicationShutdown {
  private readonly checks = new Map<string, ReadinessCheck>();
  private shuttingDown = false;

  /** Registering a name again replaces its check. */
  register(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  beforeApplicationShutdown(): void {
    this.shuttingDown = true;
  }

  async evaluate(timeoutMs: number): Promise<ReadinessReport> {
    const entries = [...this.checks.entries()];
    const outcomes = await Promise.all(entries.map(([, check]) => passes(check, timeoutMs)));
    const checks: Record<string, 'ok' | 'failing'> = {};
    entries.forEach(([name], index) => {
      checks[name] = outcomes[index] ? 'ok' : 'failing';
    });
    if (this.shuttingDown) {
      checks[SHUTTING_DOWN_CHECK] = 'failing';
    }
    const failing = Object.keys(checks).filter((name) => checks[name] === 'failing');
    return { ready: failing.length === 0, checks, failing };
  }
}

async function passes(check: ReadinessCheck, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(check), timedOut]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
