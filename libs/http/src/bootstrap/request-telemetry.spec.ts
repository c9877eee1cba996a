import { Controller, Get, Inject, Module, Param } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { trace } from '@opentelemetry/api';
import type { Logger } from 'pino';

import { HealthModule } from '../health/health.module';
import { currentCorrelationId } from '../logging/request-context';
import { createHttpTestApp, type HttpTestApp } from '../test-support/http-test-app';

const LOGGER = Symbol('LOGGER');
const INCOMING_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${INCOMING_TRACE_ID}-00f067aa0ba902b7-01`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Reports what a handler sees of its request's context, and logs through the service's logger. */
@Controller('contacts')
class ContactsController {
  constructor(@Inject(LOGGER) private readonly logger: () => Logger) {}

  @Get(':id')
  async show(@Param('id') id: string): Promise<{ data: Record<string, string | undefined> }> {
    await new Promise((resolve) => setTimeout(resolve, 1));
    this.logger().info({ contact_id: id }, 'contact read');
    return {
      data: {
        correlation_id: currentCorrelationId(),
        trace_id: trace.getActiveSpan()?.spanContext().traceId,
      },
    };
  }
}

let current: HttpTestApp | undefined;

@Module({
  controllers: [ContactsController],
  // The test app's logger exists only once the app is built, after the controller.
  providers: [{ provide: LOGGER, useValue: () => current!.logger }],
})
class ContactsModule {}

function linesOf(testApp: HttpTestApp, message: string): Record<string, unknown>[] {
  return testApp.logLines().filter((line) => line['msg'] === message);
}

describe('request telemetry', () => {
  describe('at the public edge', () => {
    let testApp: HttpTestApp;
    let app: NestFastifyApplication;

    beforeAll(async () => {
      testApp = await createHttpTestApp({
        imports: [ContactsModule, HealthModule.forRoot({ service: 'test-service' })],
        globalPrefix: 'api/v1',
        logLevel: 'debug',
      });
      app = testApp.app;
      current = testApp;
    });

    afterAll(async () => {
      await app.close();
    });

    it('mints a correlation id per request, answers it in X-Request-Id and logs one access line with it', async () => {
      const first = await app.inject({
        method: 'GET',
        url: '/api/v1/contacts/17?filter=secret-looking',
        headers: { authorization: 'Bearer cms_live_do-not-log-me' },
      });
      const second = await app.inject({ method: 'GET', url: '/api/v1/contacts/18' });

      const id = first.headers['x-request-id'];
      expect(id).toMatch(UUID);
      expect(second.headers['x-request-id']).toMatch(UUID);
      expect(second.headers['x-request-id']).not.toBe(id);
      const access = linesOf(testApp, 'request completed').find((line) => line['correlation_id'] === id);
      expect(access).toEqual({
        level: 'info',
        time: expect.any(String),
        service: 'test-service',
        correlation_id: id,
        trace_id: expect.stringMatching(/^[0-9a-f]{32}$/),
        span_id: expect.stringMatching(/^[0-9a-f]{16}$/),
        method: 'GET',
        route: '/api/v1/contacts/:id',
        status_code: 200,
        duration_ms: expect.any(Number),
        msg: 'request completed',
      });
      const everything = JSON.stringify(testApp.logLines());
      expect(everything).not.toContain('do-not-log-me');
      expect(everything).not.toContain('secret-looking');
    });

    it("gives the handler and its log lines the request's correlation id and trace", async () => {
      const response = await app.inject({ method: 'GET', url: '/api/v1/contacts/19' });

      const id = response.headers['x-request-id'];
      const seen = (JSON.parse(response.body) as { data: Record<string, string> }).data;
      const access = linesOf(testApp, 'request completed').find((line) => line['correlation_id'] === id);
      expect(seen).toEqual({ correlation_id: id, trace_id: access!['trace_id'] });
      expect(linesOf(testApp, 'contact read')).toContainEqual(
        expect.objectContaining({ contact_id: '19', correlation_id: id, trace_id: seen['trace_id'] }),
      );
    });

    it("continues the caller's traceparent but does not take a client's X-Request-Id as its own", async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/api/v1/contacts/20',
        headers: { traceparent: TRACEPARENT, 'x-request-id': 'client-chosen-1' },
      });

      const id = response.headers['x-request-id'];
      expect(id).toMatch(UUID);
      expect((JSON.parse(response.body) as { data: { trace_id: string } }).data.trace_id).toBe(
        INCOMING_TRACE_ID,
      );
      expect(linesOf(testApp, 'request completed')).toContainEqual(
        expect.objectContaining({
          correlation_id: id,
          trace_id: INCOMING_TRACE_ID,
          client_request_id: 'client-chosen-1',
        }),
      );
    });

    it('logs the probes at debug only, untraced, and unmatched routes by a fixed label', async () => {
      const probe = await app.inject({ method: 'GET', url: '/health' });
      const missing = await app.inject({ method: 'GET', url: '/api/v1/nothing/here' });

      const lines = linesOf(testApp, 'request completed');
      const probeLine = lines.find((line) => line['correlation_id'] === probe.headers['x-request-id']);
      expect(probeLine).toMatchObject({ level: 'debug', route: '/health', status_code: 200 });
      expect(probeLine).not.toHaveProperty('trace_id');
      expect(lines.find((line) => line['correlation_id'] === missing.headers['x-request-id'])).toMatchObject({
        level: 'info',
        route: 'unmatched',
        status_code: 404,
      });
    });
  });

  describe('behind the gateway', () => {
    let testApp: HttpTestApp;

    beforeAll(async () => {
      testApp = await createHttpTestApp({
        imports: [ContactsModule],
        trustCallerRequestId: true,
      });
      current = testApp;
    });

    afterAll(async () => {
      await testApp.app.close();
    });

    it("takes the caller's X-Request-Id when it is well-formed and mints one otherwise", async () => {
      const taken = await testApp.app.inject({
        method: 'GET',
        url: '/contacts/1',
        headers: { 'x-request-id': 'gw-7f3a.1' },
      });
      const refused = await testApp.app.inject({
        method: 'GET',
        url: '/contacts/2',
        headers: { 'x-request-id': 'two words\n{"level":"fatal"}' },
      });

      expect(taken.headers['x-request-id']).toBe('gw-7f3a.1');
      expect((JSON.parse(taken.body) as { data: { correlation_id: string } }).data.correlation_id).toBe(
        'gw-7f3a.1',
      );
      expect(refused.headers['x-request-id']).toMatch(UUID);
    });
  });
});
