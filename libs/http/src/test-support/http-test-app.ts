import type { DynamicModule, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import type { Logger } from 'pino';

import { bootstrapHttp } from '../bootstrap/bootstrap-http';
import { createFastifyAdapter } from '../bootstrap/create-fastify-adapter';
import { createLogger } from '../logging/create-logger';

export interface HttpTestApp {
  app: NestFastifyApplication;
  /** The service's logger, writing where logLines() reads. */
  logger: Logger;
  /** Every JSON line the service logged so far. */
  logLines: () => Record<string, unknown>[];
}

export interface HttpTestAppOptions {
  controllers?: Type[];
  imports?: (Type | DynamicModule)[];
  bodyLimitBytes?: number;
  globalPrefix?: string;
  /** As a service behind the gateway: the caller's X-Request-Id becomes the correlation id. */
  trustCallerRequestId?: boolean;
  /** Lowest level captured; default LOG_LEVEL or info. */
  logLevel?: 'trace' | 'debug' | 'info';
  /** What a service's main.ts does between `bootstrapHttp` and `init()`, e.g. registering a body parser. */
  configure?: (app: NestFastifyApplication) => void;
}

/** A real Nest app on the Fastify adapter, wired as a service's main.ts wires it, with its logs captured. */
export async function createHttpTestApp(options: HttpTestAppOptions = {}): Promise<HttpTestApp> {
  const lines: string[] = [];
  const logger = createLogger('test-service', {
    level: options.logLevel,
    destination: { write: (line) => lines.push(line) },
  });
  const moduleRef = await Test.createTestingModule({
    imports: options.imports ?? [],
    controllers: options.controllers ?? [],
  }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(
    createFastifyAdapter({
      logger,
      bodyLimitBytes: options.bodyLimitBytes,
      trustCallerRequestId: options.trustCallerRequestId ?? false,
    }),
    { bufferLogs: true },
  );
  bootstrapHttp(app, { service: 'test-service', logger, globalPrefix: options.globalPrefix });
  options.configure?.(app);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return {
    app,
    logger,
    logLines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
