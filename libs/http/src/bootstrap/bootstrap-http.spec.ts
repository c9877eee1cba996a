import {
  Body,
  Controller,
  Get,
  Post,
  type MiddlewareConsumer,
  Module,
  type NestMiddleware,
  type NestModule,
  UnauthorizedException,
} from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

import type { JsonApiErrorBody } from '../errors/json-api.exception';
import { createHttpTestApp, type HttpTestApp } from '../test-support/http-test-app';

class RequireKeyMiddleware implements NestMiddleware {
  use(_request: unknown, _response: unknown, _next: () => void): void {
    throw new UnauthorizedException('The API key is missing.');
  }
}

class ExplodingMiddleware implements NestMiddleware {
  use(_request: unknown, _response: unknown, _next: () => void): void {
    throw new Error('redis://secret@cache unreachable');
  }
}

@Controller()
class PingController {
  @Get('ping')
  ping(): { data: string } {
    return { data: 'pong' };
  }

  @Post('echo')
  echo(@Body() body: unknown): { data: unknown } {
    return { data: body };
  }

  @Get('guarded')
  guarded(): { data: string } {
    return { data: 'never' };
  }

  @Get('exploding')
  exploding(): { data: string } {
    return { data: 'never' };
  }
}

@Module({ controllers: [PingController] })
class PingModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequireKeyMiddleware).forRoutes('guarded');
    consumer.apply(ExplodingMiddleware).forRoutes('exploding');
  }
}

describe('bootstrapHttp', () => {
  let testApp: HttpTestApp;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    testApp = await createHttpTestApp({ imports: [PingModule] });
    app = testApp.app;
  });

  afterAll(async () => {
    await app.close();
  });

  it("writes Nest's own logs as JSON lines of the service", () => {
    expect(testApp.logLines()).toContainEqual(
      expect.objectContaining({ level: 'info', service: 'test-service', context: 'RoutesResolver' }),
    );
  });

  it('answers errors thrown by middleware, which see the raw request, as JSON:API', async () => {
    const response = await app.inject({ method: 'GET', url: '/guarded' });

    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.body)).toEqual({
      errors: [{ status: '401', title: 'Unauthenticated', detail: 'The API key is missing.' }],
    });
  });

  it('hides an unexpected middleware error behind an id that is logged', async () => {
    const response = await app.inject({ method: 'GET', url: '/exploding' });

    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('secret');
    const [{ id }] = (JSON.parse(response.body) as JsonApiErrorBody).errors;
    expect(testApp.logLines()).toContainEqual(
      expect.objectContaining({ error_id: id, method: 'GET', path: '/exploding' }),
    );
  });

  it('answers a URL the router cannot decode with a JSON:API 400', async () => {
    const response = await app.inject({ method: 'GET', url: '/ping/%E0%A4%A' });

    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toBe('application/json');
    expect(JSON.parse(response.body)).toEqual({
      errors: [
        { status: '400', title: 'Bad Request', detail: 'The URL path contains an invalid percent-encoding.' },
      ],
    });
  });

  describe('over a real socket', () => {
    let baseUrl: string;

    beforeAll(async () => {
      await app.listen({ port: 0, host: '127.0.0.1' });
      baseUrl = await app.getUrl();
    });

    it('serves routes and answers unknown ones with JSON:API 404', async () => {
      const ok = await fetch(`${baseUrl}/ping`);
      const missing = await fetch(`${baseUrl}/api/v1/nope`);

      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ data: 'pong' });
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toBe('application/json');
      expect(await missing.json()).toEqual({
        errors: [
          { status: '404', title: 'Not Found', detail: 'The route GET /api/v1/nope could not be found.' },
        ],
      });
    });

    it('answers a POST of malformed JSON with a JSON:API 400', async () => {
      const response = await fetch(`${baseUrl}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"broken"',
      });

      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toEqual({
        errors: [{ status: '400', title: 'Bad Request', detail: 'The request body is not valid JSON.' }],
      });
    });

    it('answers a known path with a wrong method with 405 and Allow', async () => {
      const response = await fetch(`${baseUrl}/ping`, { method: 'DELETE' });

      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    });
  });
});
