import type { DynamicModule, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';

import { bootstrapHttp } from '../bootstrap/bootstrap-http';
import { createFastifyAdapter } from '../bootstrap/create-fastify-adapter';
import { createLogger } from '../logging/create-logger';

export interface HttpTestApp {
  app: NestFastifyApplication;
  /** Every JSON line the service logged so far. */
  logLines: () => Record<string, unknown>[];
}

export interface HttpTestAppOptions {
  controllers?: Type[];
  imports?: (Type | DynamicModule)[];
  bodyLimitBytes?: number;
  globalPrefix?: string;
}

/** A real Nest app on the Fastify adapter, wired as a service's main.ts wires it, with its logs captured. */
export async function createHttpTestApp(options: HttpTestAppOptions = {}): Promise<HttpTestApp> {
  const lines: string[] = [];
  const logger = createLogger('test-service', { destination: { write: (line) => lines.push(line) } });
  const moduleRef = await Test.createTestingModule({
    imports: options.imports ?? [],
    controllers: options.controllers ?? [],
  }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(
    createFastifyAdapter({ logger, bodyLimitBytes: options.bodyLimitBytes }),
    { bufferLogs: true },
  );
  bootstrapHttp(app, { service: 'test-service', logger, globalPrefix: options.globalPrefix });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return {
    app,
    logLines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
