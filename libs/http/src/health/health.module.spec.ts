import { Controller, Get, Injectable, Module, type OnModuleInit, Param } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Counter, Registry } from 'prom-client';

import { createHttpTestApp } from '../test-support/http-test-app';
import { HealthModule } from './health.module';
import { ReadinessRegistry } from './readiness.registry';

/** Stands for a module of a service that owns a dependency and says whether it is reachable. */
@Injectable()
class BrokerConnection implements OnModuleInit {
  connected = true;
  readonly sent: Counter;

  constructor(
    private readonly readiness: ReadinessRegistry,
    registry: Registry,
  ) {
    this.sent = new Counter({ name: 'broker_messages_sent_total', help: 'Sent.', registers: [registry] });
  }

  onModuleInit(): void {
    this.readiness.register('broker', () => this.connected);
    this.readiness.register('database', async () => Promise.resolve(true));
  }
}

@Module({ providers: [BrokerConnection], exports: [BrokerConnection] })
class BrokerModule {}

@Controller('contacts')
class ContactsController {
  @Get(':id')
  show(@Param('id') id: string): { data: { id: string } } {
    return { data: { id } };
  }
}

describe('HealthModule', () => {
  let app: NestFastifyApplication;
  let broker: BrokerConnection;

  beforeAll(async () => {
    ({ app } = await createHttpTestApp({
      imports: [HealthModule.forRoot({ service: 'contacts', readinessTimeoutMs: 50 }), BrokerModule],
      controllers: [ContactsController],
      globalPrefix: 'api/v1',
    }));
    broker = app.get(BrokerConnection);
  });

  afterAll(async () => {
    await app.close();
  });

  beforeEach(() => {
    broker.connected = true;
  });

  it('answers /health with 200 and the service, outside the API prefix', async () => {
    const response = await app.inject({ method: 'GET', url: '/health' });

    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ status: 'ok', service: 'contacts' });
  });

  it('answers /ready with 200 when every check passes', async () => {
    const response = await app.inject({ method: 'GET', url: '/ready' });

    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({
      status: 'ready',
      checks: { broker: 'ok', database: 'ok' },
      failing: [],
    });
  });

  it('answers /ready with 503 listing the failing checks', async () => {
    broker.connected = false;

    const response = await app.inject({ method: 'GET', url: '/ready' });

    expect(response.statusCode).toBe(503);
    expect(JSON.parse(response.body)).toEqual({
      status: 'not_ready',
      service: 'contacts',
      checks: { broker: 'failing', database: 'ok' },
      failing: ['broker'],
    });
  });

  it('counts a check that throws or hangs as failing', async () => {
    const readiness = app.get(ReadinessRegistry);
    readiness.register('throws', () => {
      throw new Error('boom');
    });
    readiness.register('hangs', () => new Promise<boolean>(() => undefined));

    const response = await app.inject({ method: 'GET', url: '/ready' });

    expect(response.statusCode).toBe(503);
    expect((JSON.parse(response.body) as { failing: string[] }).failing).toEqual(['throws', 'hangs']);
    readiness.register('throws', () => true);
    readiness.register('hangs', () => true);
  });

  it('serves Prometheus text with the request histogram, labelled by route pattern', async () => {
    await app.inject({ method: 'GET', url: '/api/v1/contacts/17' });
    await app.inject({ method: 'GET', url: '/api/v1/unknown/path' });
    broker.sent.inc();

    const response = await app.inject({ method: 'GET', url: '/metrics' });

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.body).toContain('# TYPE http_request_duration_seconds histogram');
    expect(response.body).toMatch(
      /http_request_duration_seconds_count\{service="contacts",method="GET",route="\/api\/v1\/contacts\/:id",status_code="200"\} 1/,
    );
    expect(response.body).toMatch(
      /http_request_duration_seconds_count\{service="contacts",method="GET",route="unmatched",status_code="404"\} 1/,
    );
    expect(response.body).not.toContain('contacts/17');
    expect(response.body).toMatch(/process_cpu_user_seconds_total\{service="contacts"\}/);
    expect(response.body).toMatch(/broker_messages_sent_total\{service="contacts"\} 1/);
  });
});

describe('ReadinessRegistry', () => {
  it('reports not ready once the application begins to shut down', async () => {
    const readiness = new ReadinessRegistry();
    readiness.register('broker', () => true);

    readiness.beforeApplicationShutdown();

    expect(await readiness.evaluate(50)).toEqual({
      ready: false,
      checks: { broker: 'ok', shutting_down: 'failing' },
      failing: ['shutting_down'],
    });
  });
});
