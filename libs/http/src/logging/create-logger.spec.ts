import { createLogger } from './create-logger';
import { PinoNestLogger } from './pino-nest.logger';

function capturingLogger(): {
  lines: () => Record<string, unknown>[];
  logger: ReturnType<typeof createLogger>;
} {
  const written: string[] = [];
  const logger = createLogger('gateway', {
    level: 'trace',
    destination: { write: (line) => written.push(line) },
  });
  return { logger, lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('createLogger', () => {
  it('writes one JSON line per entry with the service, a level name and an ISO time', () => {
    const { logger, lines } = capturingLogger();

    logger.info({ correlation_id: 'c-1' }, 'event recorded');

    expect(lines()).toEqual([
      {
        level: 'info',
        time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        service: 'gateway',
        correlation_id: 'c-1',
        msg: 'event recorded',
      },
    ]);
  });
});

describe('PinoNestLogger', () => {
  it('writes Nest messages with their context', () => {
    const { logger, lines } = capturingLogger();
    const nest = new PinoNestLogger(logger);

    nest.log('Mapped {/health, GET} route', 'RouterExplorer');
    nest.warn('slow', 'Kafka');
    nest.verbose('detail');

    expect(lines()).toEqual([
      expect.objectContaining({
        level: 'info',
        context: 'RouterExplorer',
        msg: 'Mapped {/health, GET} route',
      }),
      expect.objectContaining({ level: 'warn', context: 'Kafka', msg: 'slow' }),
      expect.objectContaining({ level: 'trace', msg: 'detail', service: 'gateway' }),
    ]);
  });

  it('tells a stack from a context in error calls', () => {
    const { logger, lines } = capturingLogger();
    const nest = new PinoNestLogger(logger);
    const stack = 'Error: down\n    at connect (/app/main.js:10:5)';

    nest.error('could not connect', stack, 'Bootstrap');
    nest.error('could not connect', stack);
    nest.error('could not connect', 'Bootstrap');
    nest.error(new Error('down'));

    const [both, stackOnly, contextOnly, error] = lines();
    expect(both).toMatchObject({ level: 'error', stack, context: 'Bootstrap', msg: 'could not connect' });
    expect(stackOnly).toMatchObject({ stack });
    expect(stackOnly).not.toHaveProperty('context');
    expect(contextOnly).toMatchObject({ context: 'Bootstrap' });
    expect(contextOnly).not.toHaveProperty('stack');
    expect(error).toMatchObject({ msg: 'down', err: { message: 'down', stack: expect.any(String) } });
  });
});
