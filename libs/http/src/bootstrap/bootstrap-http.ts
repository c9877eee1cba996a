import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';

import { installBodyParsers } from '../body/install-body-parsers';
import { JsonApiExceptionFilter } from '../errors/json-api-exception.filter';
import { HEALTH_ROUTES } from '../health/health.options';
import { createLogger } from '../logging/create-logger';
import { PinoNestLogger } from '../logging/pino-nest.logger';
import { startTracing } from '../tracing/start-tracing';
import { createValidationPipe } from '../validation/create-validation.pipe';
import { installDrainOnClose } from './drain-on-close.hook';
import { installRequestTelemetry } from './request-telemetry.hook';

export interface BootstrapHttpOptions {
  service: string;
  /** Created for the service when not given. */
  logger?: Logger;
  /** E.g. `api/v1`; the probe routes stay at the root, where orchestrators look for them. */
  globalPrefix?: string;
}

/**
 * The HTTP conventions every service shares: JSON logs with an access line per request, a correlation
 * id per request (X-Request-Id), W3C trace context (see `startTracing`), JSON:API errors (unknown
 * routes, 405s and body parsing failures included), the body rules of extensions §1 on every route
 * (JSON only, valid UTF-8, an object, at most 32 levels deep, no U+0000 or lone surrogate anywhere: see
 * `installBodyParsers`), the validation pipe, and the global prefix. Call it before `init()` or
 * `listen()`; metrics and probes come from importing `HealthModule.forRoot(...)` in the app module.
 */
export function bootstrapHttp(
  app: NestFastifyApplication,
  options: BootstrapHttpOptions,
): { logger: Logger } {
  const logger = options.logger ?? createLogger(options.service);
  app.useLogger(new PinoNestLogger(logger));
  app.flushLogs();
  const tracing = startTracing(options.service, { logger });
  const fastify = app.getHttpAdapter().getInstance();
  installRequestTelemetry(fastify, logger);
  installDrainOnClose(fastify);
  fastify.addHook('onClose', async () => tracing.flush());
  app.useGlobalFilters(new JsonApiExceptionFilter(logger));
  app.useGlobalPipes(createValidationPipe());
  installBodyParsers(app);
  if (options.globalPrefix !== undefined) {
    app.setGlobalPrefix(options.globalPrefix, { exclude: [...HEALTH_ROUTES] });
  }
  return { logger };
}
