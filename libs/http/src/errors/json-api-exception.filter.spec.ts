import {
  Body,
  Controller,
  Delete,
  ForbiddenException,
  Get,
  NotFoundException,
  Param,
  Post,
  ServiceUnavailableException,
  UnauthorizedException,
} from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

import { createHttpTestApp, type HttpTestApp } from '../test-support/http-test-app';
import { type JsonApiErrorBody, JsonApiException } from './json-api.exception';

const SECRET = 'connection to postgres://admin:hunter2@db failed';

@Controller('api/v1/things')
class ThingsController {
  @Get()
  list(): { data: unknown[] } {
    return { data: [] };
  }

  @Post()
  create(@Body() body: unknown): { data: unknown } {
    return { data: body };
  }

  @Get(':id')
  show(@Param('id') id: string): { data: { id: string } } {
    return { data: { id } };
  }

  @Delete(':id')
  remove(@Param('id') id: string): { data: { id: string } } {
    return { data: { id } };
  }
}

@Controller('failures')
class FailuresController {
  @Get('crash')
  crash(): never {
    throw new Error(SECRET);
  }

  @Get('crash-async')
  async crashAsync(): Promise<never> {
    await Promise.resolve();
    throw new TypeError(SECRET);
  }

  @Get('nest-not-found')
  nestNotFound(): never {
    throw new NotFoundException('No contact with id 7 in this workspace.');
  }

  @Get('nest-unauthorized')
  nestUnauthorized(): never {
    throw new UnauthorizedException();
  }

  @Get('nest-forbidden')
  nestForbidden(): never {
    throw new ForbiddenException('The key lacks the contacts:write permission.');
  }

  @Get('nest-unavailable')
  nestUnavailable(): never {
    throw new ServiceUnavailableException(SECRET);
  }

  @Get('rate-limited')
  rateLimited(): never {
    throw JsonApiException.tooManyRequests(30);
  }

  @Get('draining')
  draining(): never {
    throw JsonApiException.serviceUnavailable(4.2);
  }

  @Get('conflict')
  conflict(): never {
    throw JsonApiException.conflict('The Idempotency-Key was used for another request.');
  }

  /** What node-postgres throws for a query while Postgres restarts. */
  @Get('database-down')
  databaseDown(): never {
    throw Object.assign(new Error(`connect ECONNREFUSED for ${SECRET}`), { code: 'ECONNREFUSED' });
  }
}

describe('JsonApiExceptionFilter', () => {
  let testApp: HttpTestApp;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    testApp = await createHttpTestApp({
      controllers: [ThingsController, FailuresController],
      bodyLimitBytes: 1024,
    });
    app = testApp.app;
  });

  afterAll(async () => {
    await app.close();
  });

  function errorsOf(body: string): JsonApiErrorBody['errors'] {
    return (JSON.parse(body) as JsonApiErrorBody).errors;
  }

  describe('unknown routes', () => {
    it('answers 404 JSON:API naming the method and path of the route that could not be found', async () => {
      const response = await app.inject({ method: 'GET', url: '/api/v1/nope?page=2' });

      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toBe('application/json');
      expect(JSON.parse(response.body)).toEqual({
        errors: [
          { status: '404', title: 'Not Found', detail: 'The route GET /api/v1/nope could not be found.' },
        ],
      });
    });

    it('answers 405 with an Allow header when the path exists for other methods only', async () => {
      const response = await app.inject({ method: 'PUT', url: '/api/v1/things/12' });

      expect(response.statusCode).toBe(405);
      expect(response.headers['allow']).toBe('DELETE, GET, HEAD');
      expect(errorsOf(response.body)).toEqual([
        {
          status: '405',
          title: 'Method Not Allowed',
          detail: 'The method PUT is not allowed for /api/v1/things/12; allowed: DELETE, GET, HEAD.',
        },
      ]);
    });

    it('answers 404, not 405, when the only matching route would need an empty path parameter', async () => {
      const response = await app.inject({ method: 'PUT', url: '/api/v1/things/' });

      expect(response.statusCode).toBe(404);
    });
  });

  describe('request bodies Fastify rejects before any route code runs', () => {
    it('answers 400 Bad Request for malformed JSON', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/things',
        headers: { 'content-type': 'application/json' },
        payload: '{"name": "Ada",',
      });

      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toBe('application/json');
      expect(errorsOf(response.body)).toEqual([
        { status: '400', title: 'Bad Request', detail: 'The request body is not valid JSON.' },
      ]);
    });

    it("passes an empty JSON body on as no body, for the route's own rules to judge (extensions §1)", async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/things',
        headers: { 'content-type': 'application/json' },
        payload: '',
      });

      expect(response.statusCode).toBe(201);
      expect(JSON.parse(response.body)).toEqual({});
    });

    it('answers 415 for a content type no parser accepts', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/things',
        headers: { 'content-type': 'application/xml' },
        payload: '<thing/>',
      });

      expect(response.statusCode).toBe(415);
      expect(errorsOf(response.body)).toEqual([
        {
          status: '415',
          title: 'Unsupported Media Type',
          detail: 'The Content-Type application/xml is not supported; send application/json.',
        },
      ]);
    });

    it('answers 413 for a body over the configured limit', async () => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/things',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'x'.repeat(2048) }),
      });

      expect(response.statusCode).toBe(413);
      expect(errorsOf(response.body)).toEqual([
        {
          status: '413',
          title: 'Payload Too Large',
          detail: 'The request body is larger than the limit of 1024 bytes.',
        },
      ]);
    });

    it('still accepts a body within the limit', async () => {
      const response = await app.inject({ method: 'POST', url: '/api/v1/things', payload: { name: 'Ada' } });

      expect(response.statusCode).toBe(201);
      expect(JSON.parse(response.body)).toEqual({ data: { name: 'Ada' } });
    });
  });

  describe('unexpected errors', () => {
    it.each(['/failures/crash', '/failures/crash-async'])(
      'answers %s with 500, an id, and nothing of the internal error',
      async (url) => {
        const response = await app.inject({ method: 'GET', url });

        expect(response.statusCode).toBe(500);
        expect(response.headers['content-type']).toBe('application/json');
        const [error] = errorsOf(response.body);
        expect(error).toEqual({
          status: '500',
          title: 'Internal Server Error',
          detail: 'An unexpected error occurred; quote the id when reporting it.',
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        });
        expect(response.body).not.toContain('hunter2');
        expect(JSON.parse(response.body)).toEqual({ errors: [error] });
        expect(response.body).not.toContain('TypeError');
        expect(response.body).not.toMatch(/\bat .+:\d+:\d+/);
      },
    );

    it('logs one JSON line with the same id, the request id, the method, the path and the stack', async () => {
      const response = await app.inject({ method: 'GET', url: '/failures/crash?x=1' });
      const [{ id }] = errorsOf(response.body);

      const line = testApp.logLines().find((entry) => entry['error_id'] === id);
      expect(line).toMatchObject({
        level: 'error',
        service: 'test-service',
        method: 'GET',
        path: '/failures/crash',
        correlation_id: response.headers['x-request-id'],
        err: { message: SECRET, stack: expect.stringContaining('FailuresController.crash') },
      });
    });

    it('answers 503 with Retry-After and an id when a dependency cannot be reached, and logs a warning', async () => {
      const response = await app.inject({ method: 'GET', url: '/failures/database-down' });

      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      const [error] = errorsOf(response.body);
      expect(error).toEqual({
        status: '503',
        title: 'Service Unavailable',
        detail: expect.stringContaining('retry later'),
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      expect(response.body).not.toContain('hunter2');
      const line = testApp.logLines().find((entry) => entry['error_id'] === error!.id);
      expect(line).toMatchObject({
        level: 'warn',
        path: '/failures/database-down',
        err: { code: 'ECONNREFUSED' },
      });
    });

    it('hides the message of a Nest 5xx exception too, behind an id', async () => {
      const response = await app.inject({ method: 'GET', url: '/failures/nest-unavailable' });

      expect(response.statusCode).toBe(503);
      const [error] = errorsOf(response.body);
      expect(error).toMatchObject({ status: '503', title: 'Service Unavailable', id: expect.any(String) });
      expect(response.body).not.toContain('hunter2');
    });
  });

  describe("Nest's built-in exceptions", () => {
    it.each([
      ['/failures/nest-not-found', 404, 'Not Found', 'No contact with id 7 in this workspace.'],
      ['/failures/nest-unauthorized', 401, 'Unauthenticated', 'Unauthorized'],
      ['/failures/nest-forbidden', 403, 'Forbidden', 'The key lacks the contacts:write permission.'],
    ])('answers %s as %i %s', async (url, status, title, detail) => {
      const response = await app.inject({ method: 'GET', url });

      expect(response.statusCode).toBe(status);
      expect(errorsOf(response.body)).toEqual([{ status: String(status), title, detail }]);
    });
  });

  describe('JsonApiException helpers', () => {
    it('answers 429 with Retry-After', async () => {
      const response = await app.inject({ method: 'GET', url: '/failures/rate-limited' });

      expect(response.statusCode).toBe(429);
      expect(response.headers['retry-after']).toBe('30');
      expect(errorsOf(response.body)).toEqual([
        { status: '429', title: 'Too Many Requests', detail: 'Too many requests; retry after 30 seconds.' },
      ]);
    });

    it('answers 503 with Retry-After rounded up to whole seconds', async () => {
      const response = await app.inject({ method: 'GET', url: '/failures/draining' });

      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(errorsOf(response.body)[0]).toMatchObject({ status: '503', title: 'Service Unavailable' });
    });

    it('answers 409 Conflict with the given detail', async () => {
      const response = await app.inject({ method: 'GET', url: '/failures/conflict' });

      expect(response.statusCode).toBe(409);
      expect(errorsOf(response.body)).toEqual([
        { status: '409', title: 'Conflict', detail: 'The Idempotency-Key was used for another request.' },
      ]);
    });
  });
});

describe('JsonApiException', () => {
  it.each([
    [JsonApiException.unauthenticated(), 401, 'Unauthenticated'],
    [JsonApiException.forbidden(), 403, 'Forbidden'],
    [JsonApiException.notFound('No such tag.'), 404, 'Not Found'],
    [JsonApiException.badRequest('Bad.'), 400, 'Bad Request'],
    [JsonApiException.payloadTooLarge(), 413, 'Payload Too Large'],
    [JsonApiException.unsupportedMediaType(), 415, 'Unsupported Media Type'],
    [JsonApiException.methodNotAllowed(['GET']), 405, 'Method Not Allowed'],
  ])('carries status %#: %i %s', (exception, status, title) => {
    expect(exception.getStatus()).toBe(status);
    expect(exception.errors[0]).toMatchObject({ status: String(status), title });
  });

  it('builds one 422 from several validation issues', () => {
    const exception = JsonApiException.validation([
      { detail: 'The contact limit of the plan is reached.' },
      { detail: 'The email is taken.', source: { pointer: '/data/attributes/email' } },
    ]);

    expect(exception.getStatus()).toBe(422);
    expect(exception.errors).toEqual([
      { status: '422', title: 'Validation Error', detail: 'The contact limit of the plan is reached.' },
      {
        status: '422',
        title: 'Validation Error',
        detail: 'The email is taken.',
        source: { pointer: '/data/attributes/email' },
      },
    ]);
  });
});
