import type { LoggerService } from '@nestjs/common';
import type { Level, Logger } from 'pino';

// Nest's own logger tells a stack from a context the same way.
const STACK_FORMAT = /^(.)+\n\s+at .+:\d+:\d+/;

/** Lets Nest (`NestFactory.create(..., { logger })`, `app.useLogger`) write through pino, as JSON. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...optionalParams: unknown[]): void {
    this.write('info', message, optionalParams);
  }

  error(message: unknown, ...optionalParams: unknown[]): void {
    // Nest calls `error(message, stack?, context?)`: a lone string is a stack only when it looks like one.
    const params = [...optionalParams];
    let stack: string | undefined;
    if (params.length >= 2 && (typeof params[0] === 'string' || params[0] === undefined)) {
      stack = params.shift() as string | undefined;
    } else if (params.length === 1 && typeof params[0] === 'string' && STACK_FORMAT.test(params[0])) {
      stack = params.shift() as string;
    }
    this.write('error', message, params, stack);
  }

  warn(message: unknown, ...optionalParams: unknown[]): void {
    this.write('warn', message, optionalParams);
  }

  debug(message: unknown, ...optionalParams: unknown[]): void {
    this.write('debug', message, optionalParams);
  }

  verbose(message: unknown, ...optionalParams: unknown[]): void {
    this.write('trace', message, optionalParams);
  }

  fatal(message: unknown, ...optionalParams: unknown[]): void {
    this.write('fatal', message, optionalParams);
  }

  private write(level: Level, message: unknown, params: unknown[], stack?: string): void {
    const last = params.at(-1);
    const context = typeof last === 'string' ? last : undefined;
    const fields: Record<string, unknown> = {};
    if (context !== undefined) {
      fields['context'] = context;
    }
    if (stack !== undefined) {
      fields['stack'] = stack;
    }
    if (message instanceof Error) {
      this.logger[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level]({ ...fields, ...message });
    } else {
      this.logger[level](fields, String(message));
    }
  }
}
