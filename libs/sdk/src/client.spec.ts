import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createCmsClient, type CmsClient } from './client';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A stand-in gateway on 127.0.0.1: records each request, answers what `answer` says. */
let server: Server;
let baseUrl: string;
const seen: Seen[] = [];
let answer: { status: number; body: unknown } = { status: 200, body: {} };

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      seen.push({ method: request.method!, url: request.url!, headers: request.headers, body });
      response
        .writeHead(answer.status, { 'content-type': 'application/json' })
        .end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen.length = 0;
});

describe('createCmsClient', () => {
  it('sends the key as a bearer token, fills in path parameters and hands back the parsed answer', async () => {
    const contact = { id: 42, name: 'Ada' };
    answer = { status: 200, body: { data: contact } };
    const cms = createCmsClient({
      baseUrl: `${baseUrl}/`,
      apiKey: 'cms_live_test',
      headers: { 'x-trace': 'a' },
    });
    const { data, error, response } = await cms.GET('/api/v1/contacts/{contact_id}', {
      params: { path: { contact_id: 42 } },
    });
    expect([response.status, error]).toEqual([200, undefined]);
    expect(data).toEqual({ data: contact });
    expect(seen).toEqual([
      expect.objectContaining({
        method: 'GET',
        url: '/api/v1/contacts/42',
        headers: expect.objectContaining({ authorization: 'Bearer cms_live_test', 'x-trace': 'a' }),
      }),
    ]);
  });

  it('sends a typed body as JSON, and query parameters', async () => {
    answer = { status: 201, body: { data: { id: 7 } } };
    const cms = createCmsClient({ baseUrl, apiKey: 'cms_live_test' });
    const { response } = await cms.POST('/api/v1/contacts/upsert', {
      body: { name: 'Ada', phone: '+447700900123', data: { plan: 'gold' } },
    });
    expect(response.status).toBe(201);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/api/v1/contacts/upsert' });
    expect(seen[0]!.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(seen[0]!.body)).toEqual({
      name: 'Ada',
      phone: '+447700900123',
      data: { plan: 'gold' },
    });
  });

  it('hands back a documented error answer as `error`, typed as JSON:API errors', async () => {
    answer = {
      status: 404,
      body: { errors: [{ status: '404', title: 'Not Found', detail: 'No contact 9 in this workspace.' }] },
    };
    const cms = createCmsClient({ baseUrl, apiKey: 'cms_live_test' });
    const { data, error, response } = await cms.GET('/api/v1/contacts/{contact_id}', {
      params: { path: { contact_id: 9 } },
    });
    expect([response.status, data]).toEqual([404, undefined]);
    // `error` is typed from the document: JsonApiErrors.
    expect(error?.errors[0]?.title).toBe('Not Found');
  });

  it('refuses to be made without a key or with a base URL that is not http(s)', () => {
    expect(() => createCmsClient({ baseUrl, apiKey: '' })).toThrow(TypeError);
    expect(() => createCmsClient({ baseUrl: '127.0.0.1:3000', apiKey: 'cms_live_test' })).toThrow(TypeError);
  });
});

/** Not run: `tsc` (npm run typecheck) holds calls to the document's paths, parameters and bodies. */
export function typedPathsOnly(cms: CmsClient): void {
  // @ts-expect-error a path the document does not have
  void cms.GET('/api/v1/nothing-here');
  // @ts-expect-error the path parameter is missing
  void cms.GET('/api/v1/contacts/{contact_id}', { params: { path: {} } });
  // @ts-expect-error the path parameter is an integer
  void cms.GET('/api/v1/contacts/{contact_id}', { params: { path: { contact_id: 'seven' } } });
  // @ts-expect-error `name` is a string
  void cms.POST('/api/v1/contacts/upsert', { body: { name: 42 } });
  // @ts-expect-error `name` is required
  void cms.POST('/api/v1/contacts/upsert', { body: { phone: '+447700900123' } });
}
