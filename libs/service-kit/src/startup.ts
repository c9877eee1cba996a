import { createServer, type Server } from 'node:http';

import type { Logger } from 'pino';

/** How long a starting service waits for a dependency before it gives up (and its process exits 1). */
export const STARTUP_WAIT_MS = 120_000;
const FIRST_DELAY_MS = 200;
const LONGEST_DELAY_MS = 5_000;

interface Waiting {
  attempts: number;
  since: string;
  error: string;
}

/**
 * What a starting service is waiting for. A dependency that does not answer at start-up (Postgres
 * restarting, a slow machine) is asked again with backoff, for up to STARTUP_WAIT_MS, instead of the
 * process giving up at the first refusal; meanwhile the service's port answers `/health` 200 and
 * `/ready` 503 with what it waits for (`listenUntilStarted`), so an orchestrator and an operator see a
 * service starting, not a crash loop.
 */
export class StartupStatus {
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    private readonly service: string,
    private readonly logger: Logger,
    private readonly waitMs = STARTUP_WAIT_MS,
  ) {}

  /** Runs `attempt` until it succeeds, with backoff (200 ms doubling to 5 s), for up to the wait. */
  async retry<T>(dependency: string, attempt: () => Promise<T>): Promise<T> {
    const started = Date.now();
    let delay = FIRST_DELAY_MS;
    for (let attempts = 1; ; attempts += 1) {
      try {
        const result = await attempt();
        if (this.waiting.delete(dependency)) {
          this.logger.info({ dependency, attempts }, `${dependency} reached; starting`);
        }
        return result;
      } catch (error) {
        const waited = Date.now() - started;
        if (waited + delay > this.waitMs) {
          this.waiting.delete(dependency);
          throw new Error(`${dependency} not reachable after ${attempts} attempts in ${waited} ms`, {
            cause: error,
          });
        }
        const entry = this.waiting.get(dependency);
        this.waiting.set(dependency, {
          attempts,
          since: entry?.since ?? new Date(started).toISOString(),
          error: String(error instanceof Error ? error.message : error),
        });
        this.logger.warn(
          { dependency, attempts, retryInMs: delay, err: error },
          `${dependency} not reachable yet; waiting`,
        );
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, LONGEST_DELAY_MS);
      }
    }
  }

  /** The body of `/ready` while the service starts. */
  report(): Record<string, unknown> {
    return {
      status: 'starting',
      service: this.service,
      waiting_for: Object.fromEntries(this.waiting),
    };
  }

  /** The answer to a request while the service starts: a JSON:API 503 naming what it waits for. */
  unavailable(): { errors: Array<{ status: string; title: string; detail: string }> } {
    const waiting = [...this.waiting.keys()];
    const detail =
      `The ${this.service} service is starting` +
      (waiting.length > 0 ? ` (waiting for ${waiting.join(' and ')})` : '') +
      '; retry shortly.';
    return { errors: [{ status: '503', title: 'Service Unavailable', detail }] };
  }

  /**
   * Answers on `port` while the service starts: `/health` 200 (the process is alive), `/ready` 503 with
   * the report, anything else 503 as a JSON:API error with Retry-After (a client retries as after any
   * 503 of the API). Resolves to the function that closes it, which the service calls
   * right before it listens on the port itself. Port 0 (any free port: an in-process test) gets none.
   */
  async listenUntilStarted(port: number): Promise<() => Promise<void>> {
    if (port === 0) return () => Promise.resolve();
    const server: Server = createServer((request, response) => {
      const path = (request.url ?? '/').split('?')[0];
      const [status, body, headers] =
        path === '/health'
          ? [200, { status: 'ok', service: this.service }, {}]
          : path === '/ready'
            ? [503, this.report(), {}]
            : [503, this.unavailable(), { 'retry-after': '1' }];
      response.writeHead(status, { 'content-type': 'application/json', connection: 'close', ...headers });
      response.end(JSON.stringify(body));
    });
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '0.0.0.0', () => resolve(true));
    });
    // A port already taken is the service's own listen to report, with its own error.
    if (!listening) return () => Promise.resolve();
    return () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
  }
}
