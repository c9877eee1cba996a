import { Controller, Get, Query } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

import { JsonApiException } from '../errors/json-api.exception';
import { createHttpTestApp } from '../test-support/http-test-app';
import { pageMeta, parsePagination, toListBody, toSqlWindow } from './pagination.helpers';

const CONTACTS = Array.from({ length: 60 }, (_, index) => ({ id: index + 1 }));

@Controller('contacts')
class ContactsController {
  @Get()
  list(@Query() query: Record<string, unknown>): ReturnType<typeof toListBody> {
    const page = parsePagination(query);
    const { offset, limit } = toSqlWindow(page);
    return toListBody(CONTACTS.slice(offset, offset + limit), pageMeta(CONTACTS.length, page));
  }
}

describe('pagination through a real list endpoint', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    ({ app } = await createHttpTestApp({ controllers: [ContactsController] }));
  });

  afterAll(async () => {
    await app.close();
  });

  it('answers the first 25 by default, with the meta of the spec', async () => {
    const response = await app.inject({ method: 'GET', url: '/contacts' });

    const body = JSON.parse(response.body) as { data: { id: number }[]; meta: unknown };
    expect(response.statusCode).toBe(200);
    expect(body.data).toHaveLength(25);
    expect(body.data[0]).toEqual({ id: 1 });
    expect(body.meta).toEqual({ current_page: 1, per_page: 25, total: 60, last_page: 3 });
  });

  it('answers the requested page and size, up to 100', async () => {
    const response = await app.inject({ method: 'GET', url: '/contacts?page=2&per_page=100' });

    const body = JSON.parse(response.body) as { data: unknown[]; meta: unknown };
    expect(body.data).toEqual([]);
    expect(body.meta).toEqual({ current_page: 2, per_page: 100, total: 60, last_page: 1 });
  });

  it('answers 422 pointing at per_page when it exceeds 100', async () => {
    const response = await app.inject({ method: 'GET', url: '/contacts?per_page=101' });

    expect(response.statusCode).toBe(422);
    expect(JSON.parse(response.body)).toEqual({
      errors: [
        {
          status: '422',
          title: 'Validation Error',
          detail: 'The per_page must be an integer between 1 and 100.',
          source: { pointer: '/data/attributes/per_page', parameter: 'per_page' },
        },
      ],
    });
  });

  it('reports a bad page and a bad per_page together', async () => {
    const response = await app.inject({ method: 'GET', url: '/contacts?page=0&per_page=abc' });

    expect(response.statusCode).toBe(422);
    const { errors } = JSON.parse(response.body) as { errors: { source: { pointer: string } }[] };
    expect(errors.map((error) => error.source.pointer)).toEqual([
      '/data/attributes/page',
      '/data/attributes/per_page',
    ]);
  });
});

describe('parsePagination', () => {
  it.each([
    [{}, { page: 1, perPage: 25 }],
    [
      { page: '3', per_page: '10' },
      { page: 3, perPage: 10 },
    ],
    [{ per_page: '100' }, { page: 1, perPage: 100 }],
    [{ page: 4 }, { page: 4, perPage: 25 }],
  ])('reads %j as %j', (query, expected) => {
    expect(parsePagination(query)).toEqual(expected);
  });

  it.each([
    { per_page: '0' },
    { per_page: '-5' },
    { per_page: '2.5' },
    { per_page: '1e2' },
    { per_page: '' },
    { per_page: ['10', '20'] },
    { page: '0' },
    { page: '-1' },
    { page: 'last' },
    { page: '99999999999999999999' },
  ])('refuses %j with a 422', (query) => {
    let thrown: unknown;
    try {
      parsePagination(query);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(JsonApiException);
    expect((thrown as JsonApiException).getStatus()).toBe(422);
  });
});

describe('pageMeta and toSqlWindow', () => {
  it('reports one last page for an empty list', () => {
    expect(pageMeta(0, { page: 1, perPage: 25 })).toEqual({
      current_page: 1,
      per_page: 25,
      total: 0,
      last_page: 1,
    });
  });

  it('rounds the last page up', () => {
    expect(pageMeta(51, { page: 1, perPage: 25 }).last_page).toBe(3);
  });

  it('turns a page into an offset and limit', () => {
    expect(toSqlWindow({ page: 3, perPage: 20 })).toEqual({ offset: 40, limit: 20 });
  });
});
