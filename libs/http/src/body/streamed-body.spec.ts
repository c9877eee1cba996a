import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';

import type { JsonApiErrorBody } from '../errors/json-api.exception';
import { createHttpTestApp } from '../test-support/http-test-app';
import { acceptStreamedBody, StreamedBody } from '../index';

/** What the handlers received; a refused request leaves nothing here. */
const handled: Array<{ route: string; text?: string; body?: unknown }> = [];

@Controller()
class UploadsController {
  @Post('uploads')
  @HttpCode(200)
  @StreamedBody('text/csv')
  async upload(@Req() request: FastifyRequest): Promise<{ data: { bytes: number } }> {
    const chunks: Buffer[] = [];
    for await (const chunk of request.raw) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    handled.push({ route: 'uploads', text, body: request.body });
    return { data: { bytes: text.length } };
  }

  @Post('tags')
  @HttpCode(200)
  tag(@Body() body: unknown): { data: unknown } {
    handled.push({ route: 'tags', body });
    return { data: body };
  }
}

describe('a body streamed to its route (StreamedBody, acceptStreamedBody)', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    ({ app } = await createHttpTestApp({
      controllers: [UploadsController],
      bodyLimitBytes: 1024,
      configure: (nest) => acceptStreamedBody(nest, 'text/csv'),
    }));
  });

  afterAll(async () => {
    await app.close();
  });

  beforeEach(() => {
    handled.length = 0;
  });

  async function send(
    url: string,
    payload: string,
    contentType: string | null,
  ): Promise<{ status: number; body: Partial<JsonApiErrorBody> & { data?: unknown } }> {
    const response = await app.inject({
      method: 'POST',
      url,
      payload,
      headers: contentType === null ? {} : { 'content-type': contentType },
    });
    return { status: response.statusCode, body: JSON.parse(response.body) as Record<string, unknown> };
  }

  it('hands the route its body unread, past the limit of bodies a parser reads', async () => {
    const file = `phone\n${'+15005550001\n'.repeat(200)}`;
    const answer = await send('/uploads', file, 'text/csv; charset=utf-8');
    expect(answer).toEqual({ status: 200, body: { data: { bytes: file.length } } });
    expect(handled).toEqual([{ route: 'uploads', text: file, body: undefined }]);
  });

  it.each([
    ['application/json', '{"a":1}', 'application/json'],
    ['text/plain', 'phone\n1\n', 'text/plain'],
    ['no Content-Type', 'phone\n1\n', null],
  ])('answers %s 415 on the streamed route, naming the media type it takes', async (_name, payload, type) => {
    const answer = await send('/uploads', payload, type);
    expect(answer.status).toBe(415);
    expect(answer.body.errors![0]!.detail).toMatch(/is not supported here; send text\/csv\./);
    expect(handled).toEqual([]);
  });

  it('keeps answering the streamed media type 415 on every other route, and JSON there as before', async () => {
    const refused = await send('/tags', 'phone\n1\n', 'text/csv');
    expect(refused.status).toBe(415);
    expect(refused.body.errors![0]!.detail).toBe(
      'The Content-Type text/csv is not supported; send application/json.',
    );
    expect(await send('/tags', '{"name":"vip"}', 'application/json')).toEqual({
      status: 200,
      body: { data: { name: 'vip' } },
    });
    expect(handled.map((entry) => entry.route)).toEqual(['tags']);
  });
});
