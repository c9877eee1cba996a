import { type DestinationStream, type LevelWithSilent, type Logger, pino } from 'pino';

import { logContextFields } from './request-context';

export interface CreateLoggerOptions {
  level?: LevelWithSilent;
  /** Stdout unless given; tests pass a stream to read the lines back. */
  destination?: DestinationStream;
}

/**
 * A JSON logger that stamps every line with the service, an ISO time and a level name (not pino's
 * numbers), so the lines of all services can be searched with the same query. Lines written while a
 * request is served or a record applied also carry its `correlation_id` and `trace_id` (fields given
 * in the call win).
 */
export function createLogger(service: string, options: CreateLoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? (process.env.LOG_LEVEL as LevelWithSilent | undefined) ?? 'info',
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: logContextFields,
    },
    options.destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

/**
 * Node prints process warnings as plain text on stderr; a service's output is JSON lines only, so
 * warnings go through the logger instead. A timeout of a negative delay (which kafkajs set before
 * libs/kafka's request-queue fix) is reported as TimeoutNegativeWarning and run after 1 ms: debug noise.
 */
export function logProcessWarnings(logger: Logger): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    const line = { warning: warning.name };
    if (warning.name === 'TimeoutNegativeWarning') logger.debug(line, warning.message);
    else logger.warn(line, warning.message);
  });
}
