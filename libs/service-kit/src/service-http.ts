import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/** What a service's HTTP server does beyond the conventions every service shares (all optional). */
export interface ServiceHttp {
  /**
   * Callers outside the platform reach it: each request's correlation id is minted here, never taken
   * from the caller's X-Request-Id as a service behind the edge takes it.
   */
  publicEdge?: boolean;
  /** Larger request bodies are answered 413 before any route runs (default: the edge's 1 MiB). */
  bodyLimitBytes?: number;
  /**
   * Called once the app is built and its consumers run, before it listens (never in a rebuild, which
   * serves no HTTP): e.g. routes served from what the app's controllers declare.
   */
  beforeListen?(app: NestFastifyApplication): void;
}
