import { Body, Controller, HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import type { FastifyRequest } from 'fastify';

import type { JsonApiErrorBody } from '../errors/json-api.exception';
import { createHttpTestApp } from '../test-support/http-test-app';
import { AcceptsBodyMediaTypes, acceptBodyMediaType, RawJsonBody, readJsonBody } from '../index';

class CreateTagDto {
  @IsString()
  @MaxLength(50)
  name!: string;
}

class UpdateThingDto {
  @IsOptional()
  @IsString()
  name?: string;

  @IsOptional()
  data?: Record<string, unknown>;
}

/** What reached the handlers: a refused request must leave no trace here. */
const handled: string[] = [];

@Controller()
class ThingsController {
  @Post('tags')
  createTag(@Body() body: CreateTagDto): { data: CreateTagDto } {
    handled.push('tags');
    return { data: body };
  }

  @Put('things/:id')
  updateThing(@Param('id') id: string, @Body() body: UpdateThingDto): { data: object } {
    handled.push('things');
    return { data: { id, ...body } };
  }

  @Post('things/:id/roll')
  @HttpCode(200)
  roll(@Param('id') id: string): { data: { id: string } } {
    handled.push('roll');
    return { data: { id } };
  }

  @Post('signed')
  @HttpCode(200)
  @RawJsonBody()
  signed(@Req() request: FastifyRequest): { data: { bytes: number; body: object } } {
    handled.push('signed');
    const raw = request.body as Buffer;
    return { data: { bytes: raw.length, body: readJsonBody(raw) } };
  }

  @Post('signed-or-csv')
  @HttpCode(200)
  @RawJsonBody()
  @AcceptsBodyMediaTypes('text/csv')
  signedOrCsv(@Req() request: FastifyRequest): { data: { raw: boolean; body: unknown } } {
    handled.push('signed-or-csv');
    return { data: { raw: Buffer.isBuffer(request.body), body: request.body } };
  }

  @Post('imports')
  @HttpCode(200)
  @AcceptsBodyMediaTypes('text/csv')
  importCsv(@Body() rows: string[][]): { data: { rows: number } } {
    handled.push('imports');
    return { data: { rows: rows.length } };
  }
}

interface Sent {
  status: number;
  contentType: string | undefined;
  body: Partial<JsonApiErrorBody> & { data?: unknown };
}

describe('the body rules of every route (installBodyParsers)', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    ({ app } = await createHttpTestApp({
      controllers: [ThingsController],
      bodyLimitBytes: 64 * 1024,
      configure: (nest) =>
        acceptBodyMediaType(nest, 'text/csv', (_request, body) =>
          body
            .toString('utf8')
            .trim()
            .split('\n')
            .map((line) => line.split(',')),
        ),
    }));
  });

  afterAll(async () => {
    await app.close();
  });

  beforeEach(() => {
    handled.length = 0;
  });

  async function send(
    method: 'POST' | 'PUT',
    url: string,
    payload?: string | Buffer,
    /** null: no Content-Type header at all. */
    contentType: string | null = 'application/json',
  ): Promise<Sent> {
    const response = await app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload }),
      headers: contentType === null ? {} : { 'content-type': contentType },
    });
    return {
      status: response.statusCode,
      contentType: response.headers['content-type'] as string | undefined,
      body: response.body === '' ? {} : (JSON.parse(response.body) as Sent['body']),
    };
  }

  function refused(status: number, detail: string | RegExp, pointer?: string): Partial<Sent> {
    return {
      status,
      contentType: 'application/json',
      body: {
        errors: [
          expect.objectContaining({
            status: String(status),
            detail: typeof detail === 'string' ? detail : expect.stringMatching(detail),
            ...(pointer === undefined ? {} : { source: { pointer } }),
          }),
        ],
      },
    };
  }

  describe('Content-Type', () => {
    it('answers a form-encoded body 415 and never hands it to the route', async () => {
      const answer = await send('POST', '/tags', 'name=vip', 'application/x-www-form-urlencoded');

      expect(answer).toEqual(
        refused(
          415,
          'The Content-Type application/x-www-form-urlencoded is not supported; send application/json.',
        ),
      );
      expect(handled).toEqual([]);
    });

    it.each([
      ['text/plain', 'name=vip'],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nvip\r\n--x--',
      ],
      ['application/vnd.api+json', '{"name":"vip"}'],
      ['application/xml', '<name>vip</name>'],
    ])('answers %s 415', async (contentType, payload) => {
      expect(await send('POST', '/tags', payload, contentType)).toEqual(refused(415, /is not supported/));
      expect(handled).toEqual([]);
    });

    it('answers a body sent without a Content-Type 415', async () => {
      const answer = await send('POST', '/tags', '{"name":"vip"}', null);

      expect(answer).toEqual(refused(415, 'The Content-Type none is not supported; send application/json.'));
    });

    it('takes application/json with a UTF-8 charset, and refuses another charset with 415', async () => {
      const utf8 = await send('POST', '/tags', '{"name":"vip"}', 'application/json; charset=UTF-8');
      const latin1 = await send('POST', '/tags', '{"name":"vip"}', 'application/json; charset=iso-8859-1');

      expect(utf8).toMatchObject({ status: 201, body: { data: { name: 'vip' } } });
      expect(latin1).toEqual(refused(415, 'The charset iso-8859-1 is not supported; send UTF-8.'));
    });

    it('takes another media type only on the routes marked for it', async () => {
      const upload = await send('POST', '/imports', 'a,b\nc,d\n', 'text/csv');
      const elsewhere = await send('POST', '/tags', 'a,b\n', 'text/csv');

      expect(upload).toMatchObject({ status: 200, body: { data: { rows: 2 } } });
      expect(elsewhere).toEqual(
        refused(415, 'The Content-Type text/csv is not supported; send application/json.'),
      );
      expect(handled).toEqual(['imports']);
    });

    it('answers an unknown route 404 whatever its body', async () => {
      expect((await send('POST', '/nothing', 'a=b', 'text/plain')).status).toBe(404);
    });

    it('answers a body over the limit 413, whatever its media type', async () => {
      const big = 'x'.repeat(65 * 1024);

      expect(await send('POST', '/tags', JSON.stringify({ name: big }))).toEqual(
        refused(413, /larger than the limit/),
      );
      expect(await send('POST', '/tags', big, 'text/plain')).toEqual(refused(413, /larger than the limit/));
    });
  });

  describe('bytes and JSON', () => {
    it('answers bytes that are not UTF-8 400, never a repaired body', async () => {
      const bytes = Buffer.concat([Buffer.from('{"name":"Zo'), Buffer.from([0xeb]), Buffer.from('"}')]);

      expect(await send('POST', '/tags', bytes)).toEqual(
        refused(400, 'The request body is not valid UTF-8.'),
      );
      expect(handled).toEqual([]);
    });

    it('answers malformed JSON 400', async () => {
      expect(await send('POST', '/tags', '{"name": ')).toEqual(
        refused(400, 'The request body is not valid JSON.'),
      );
    });
  });

  describe('the shape of the value', () => {
    it.each(['null', '[]', '"vip"', '7'])(
      'answers %s on a PUT 422 at /data instead of changing nothing',
      async (text) => {
        expect(await send('PUT', '/things/1', text)).toEqual(
          refused(422, 'The request body must be a JSON object.', '/data'),
        );
        expect(handled).toEqual([]);
      },
    );

    it('lets a route that takes no body be called with none, an empty one, or {}', async () => {
      const none = await send('POST', '/things/1/roll', undefined, null);
      const empty = await send('POST', '/things/1/roll', '');
      const emptyObject = await send('POST', '/things/1/roll', '{}');

      for (const answer of [none, empty, emptyObject]) {
        expect(answer).toMatchObject({ status: 200, body: { data: { id: '1' } } });
      }
    });

    it('judges an empty body on a route that needs one by its missing fields', async () => {
      const answer = await send('POST', '/tags', '');

      expect(answer.status).toBe(422);
      expect(new Set(answer.body.errors?.map((error) => error.source?.pointer))).toEqual(
        new Set(['/data/attributes/name']),
      );
      expect(handled).toEqual([]);
    });

    it('answers a body nested 10,000 levels deep 422 before any DTO is built', async () => {
      const deep = '{"data":' + '['.repeat(10_000) + ']'.repeat(10_000) + '}';

      expect(await send('PUT', '/things/1', deep)).toEqual(
        refused(422, /nested deeper than 32 levels/, '/data/attributes/data' + '/0'.repeat(31)),
      );
      expect(handled).toEqual([]);
    });

    it('answers U+0000 and lone surrogates anywhere 422 with a pointer to each', async () => {
      const answer = await send(
        'PUT',
        '/things/1',
        '{"name":"a\\u0000b","data":{"x/y":["\\ud800"],"\\u0000":1}}',
      );

      expect(answer.status).toBe(422);
      expect(answer.body.errors?.map((error) => error.source?.pointer)).toEqual([
        '/data/attributes/name',
        '/data/attributes/data/x~1y/0',
        '/data/attributes/data/\u0000',
      ]);
      expect(handled).toEqual([]);
    });

    it('passes valid text, surrogate pairs included, to the route unchanged', async () => {
      const answer = await send('PUT', '/things/1', '{"name":"\\ud83d\\ude00 Zoë","data":{"k":"ü"}}');

      expect(answer).toMatchObject({
        status: 200,
        body: { data: { id: '1', name: '😀 Zoë', data: { k: 'ü' } } },
      });
    });
  });

  describe('a route that takes its raw bytes', () => {
    it('gets them untouched and checks them with the same rules', async () => {
      const text = '{ "a" : 1 }';
      const ok = await send('POST', '/signed', text);
      const nul = await send('POST', '/signed', '{"a":"\\u0000"}');

      expect(ok).toMatchObject({ status: 200, body: { data: { bytes: text.length, body: { a: 1 } } } });
      expect(nul).toEqual(refused(422, /U\+0000/, '/data/attributes/a'));
    });

    it('may also take another media type: both decorators hold on one route', async () => {
      const json = await send('POST', '/signed-or-csv', '{ "a" : 1 }');
      const csv = await send('POST', '/signed-or-csv', 'a,b\n', 'text/csv');

      expect(json).toMatchObject({ status: 200, body: { data: { raw: true } } });
      expect(csv).toMatchObject({ status: 200, body: { data: { raw: false, body: [['a', 'b']] } } });
      expect(handled).toEqual(['signed-or-csv', 'signed-or-csv']);
    });

    it('is refused other media types and oversized bodies like every route', async () => {
      expect((await send('POST', '/signed', 'a=1', 'application/x-www-form-urlencoded')).status).toBe(415);
      expect((await send('POST', '/signed', 'x'.repeat(65 * 1024))).status).toBe(413);
      expect(handled).toEqual([]);
    });
  });
});
