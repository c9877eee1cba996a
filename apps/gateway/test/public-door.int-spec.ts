import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { ADMIN_TOKEN, startHarness, type Answer, type Harness } from './gateway.harness';

/** Shortened from 60 so a test can fill one; the counts stay the specification's (120 per key). */
const WINDOW_SECONDS = 30;
const PER_KEY = 120;
const EVENTS_PER_WORKSPACE = 1200;

type Data = { data: Record<string, unknown> };
type Errors = {
  errors: Array<{ status: string; title: string; detail: string; source?: Record<string, string> }>;
};

/**
 * Stands in for a service behind the read proxy, answering as the real ones do: 422 for a bad filter,
 * 404 for an id it does not hold, a page otherwise. `plain=1` makes it refuse with a body that is not
 * JSON, and `failing` makes every answer a 500. It records every target it was asked for.
 */
class FakeUpstream {
  readonly targets: string[] = [];
  private server: Server | undefined;

  constructor(private readonly failing = false) {}

  async start(): Promise<string> {
    this.server = createServer((request, response) => this.answer(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private answer(request: IncomingMessage, response: ServerResponse): void {
    const target = request.url ?? '/';
    this.targets.push(target);
    const json = (status: number, body: unknown): void => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (this.failing) return json(500, { errors: [{ status: '500', title: 'Internal Server Error' }] });
    const [path, query = ''] = target.split('?');
    if (query.includes('plain=1')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
      return;
    }
    if (query.includes('filter')) {
      return json(422, {
        errors: [
          {
            status: '422',
            title: 'Validation Error',
            detail: 'filter[phone] must not contain U+0000.',
            source: { pointer: '/data/attributes/filter[phone]', parameter: 'filter[phone]' },
          },
        ],
      });
    }
    if (/^\/internal\/v1\/(contacts|tags)\/\d+$/.test(path!)) {
      return json(404, { errors: [{ status: '404', title: 'Not Found', detail: 'Not here.' }] });
    }
    return json(200, { data: [], meta: { current_page: 1, per_page: 25, total: 0, last_page: 1 } });
  }
}

const contacts = new FakeUpstream();
const webhookDispatch = new FakeUpstream(true);
let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
    CONTACTS_URL: await contacts.start(),
    WEBHOOK_DISPATCH_URL: await webhookDispatch.start(),
  });
});

afterAll(async () => {
  await harness?.stop();
  await contacts.stop();
  await webhookDispatch.stop();
});

async function tenant(
  plan = 'pro',
  permissions = ['read', 'create', 'update', 'delete'],
): Promise<{ workspaceId: number; key: string; keyId: number }> {
  const workspace = await harness.call('POST', '/admin/v1/workspaces', {
    token: ADMIN_TOKEN,
    body: { name: 'Acme', plan },
  });
  const workspaceId = (workspace.body as Data).data.id as number;
  const key = await harness.call('POST', `/admin/v1/workspaces/${workspaceId}/api-keys`, {
    token: ADMIN_TOKEN,
    body: { name: 'k', permissions },
  });
  const data = (key.body as Data).data;
  return { workspaceId, key: data.key as string, keyId: data.id as number };
}

function limitHeaders(answer: Answer): { limit: string | null; remaining: string | null } {
  return {
    limit: answer.headers.get('x-ratelimit-limit'),
    remaining: answer.headers.get('x-ratelimit-remaining'),
  };
}

/** Refusals the gateway answers before any route code, or from its router, or from validation. */
function refusals(key: string): Array<[string, number, () => Promise<Answer>]> {
  return [
    ['malformed JSON', 400, () => harness.call('POST', '/api/v1/tags', { token: key, body: '{"name": ' })],
    ['an unknown route', 404, () => harness.call('GET', '/api/v1/nothing-here', { token: key })],
    ['an id that is not one', 404, () => harness.call('GET', '/api/v1/contacts/1e3', { token: key })],
    ['an unknown id', 404, () => harness.call('GET', '/api/v1/contacts/9007199254740991', { token: key })],
    ['a wrong method', 405, () => harness.call('DELETE', '/api/v1/contacts', { token: key })],
    [
      'a body over 1 MiB',
      413,
      () =>
        harness.call('POST', '/api/v1/tags', {
          token: key,
          body: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }),
        }),
    ],
    [
      'a body that is not JSON',
      415,
      () =>
        harness.call('POST', '/api/v1/tags', {
          token: key,
          body: 'name=vip',
          headers: { 'content-type': 'text/plain' },
        }),
    ],
    ['an invalid body', 422, () => harness.call('POST', '/api/v1/tags', { token: key, body: {} })],
    [
      "an upstream's refusal",
      422,
      () => harness.call('GET', '/api/v1/contacts?filter[phone]=%00', { token: key }),
    ],
  ];
}

describe('the rate-limit headers and the count', () => {
  it('go on every answer to a valid key, errors included, each answer counting one request', async () => {
    const { key } = await tenant();
    let expectedRemaining = PER_KEY;
    for (const [what, status, send] of refusals(key)) {
      const answer = await send();
      expectedRemaining -= 1;
      expect([what, answer.status, answer.headers.get('content-type')]).toEqual([
        what,
        status,
        'application/json',
      ]);
      expect([what, limitHeaders(answer)]).toEqual([
        what,
        { limit: String(PER_KEY), remaining: String(expectedRemaining) },
      ]);
    }
  });

  it('count a 403 of the plan, and a refusal of POST /api/v1/events in the events budget', async () => {
    const starter = await tenant('starter');
    const forbidden = await harness.call('GET', '/api/v1/contacts', { token: starter.key });
    expect(forbidden.status).toBe(403);
    expect(limitHeaders(forbidden)).toEqual({ limit: String(PER_KEY), remaining: String(PER_KEY - 1) });
    const malformed = await harness.call('POST', '/api/v1/events', { token: starter.key, body: '[' });
    expect(malformed.status).toBe(400);
    expect(limitHeaders(malformed)).toEqual({
      limit: String(EVENTS_PER_WORKSPACE),
      remaining: String(EVENTS_PER_WORKSPACE - 1),
    });
  });

  it('are absent from a 401, which counts against nothing', async () => {
    for (const authorization of [undefined, 'Bearer cms_live_never-issued', 'Basic abc']) {
      for (const path of ['/api/v1/contacts', '/api/v1/nothing-here']) {
        const answer = await harness.call('GET', path, {
          headers: authorization === undefined ? {} : { authorization },
        });
        expect([path, answer.status]).toEqual([path, 401]);
        expect((answer.body as Errors).errors[0]).toMatchObject({ status: '401', title: 'Unauthenticated' });
        expect(limitHeaders(answer)).toEqual({ limit: null, remaining: null });
      }
    }
  });

  it('refuses the request after a window of 4xx answers with 429 and Retry-After, before reading its body', async () => {
    const { key } = await tenant();
    const kinds = refusals(key);
    for (let sent = 0; sent < PER_KEY; sent += 1) {
      const [what, status, send] = kinds[sent % kinds.length]!;
      const answer = await send();
      expect([sent, what, answer.status]).toEqual([sent, what, status]);
    }
    const refused = await harness.call('POST', '/api/v1/tags', { token: key, body: '{"name": ' });
    expect(refused.status).toBe(429);
    expect(limitHeaders(refused)).toEqual({ limit: String(PER_KEY), remaining: '0' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((refused.body as Errors).errors[0]).toMatchObject({ status: '429' });
    const unknownRoute = await harness.call('GET', '/api/v1/nothing-here', { token: key });
    expect(unknownRoute.status).toBe(429);
  }, 60000);
});

describe('identifiers in a path', () => {
  const notIds = [
    '0',
    '-1',
    '1e3',
    '0x10',
    '+5',
    '007',
    '1.5',
    '9007199254740992',
    '99999999999999999999',
    'abc',
    '%201',
  ];

  it.each(notIds)('answers %s with 404 JSON:API on every id route, and asks no service', async (raw) => {
    const { key } = await tenant('agency');
    const before = contacts.targets.length;
    const routes: Array<[string, string, unknown?]> = [
      ['GET', `/api/v1/contacts/${raw}`],
      ['PUT', `/api/v1/contacts/${raw}`, { name: 'Ann' }],
      ['PUT', `/api/v1/contacts/${raw}/channels/telegram`, { external_id: '42' }],
      ['GET', `/api/v1/tags/${raw}`],
      ['PATCH', `/api/v1/tags/${raw}`, { name: 'vip' }],
      ['DELETE', `/api/v1/tags/${raw}`],
      ['GET', `/api/v1/integrations/${raw}`],
      ['GET', `/api/v1/webhook-endpoints/${raw}`],
      ['PATCH', `/api/v1/webhook-endpoints/${raw}`, { enabled: true }],
      ['GET', `/api/v1/webhook-endpoints/${raw}/deliveries`],
    ];
    for (const [method, path, body] of routes) {
      const answer = await harness.call(method, path, { token: key, ...(body ? { body } : {}) });
      expect([method, path, answer.status]).toEqual([method, path, 404]);
      expect((answer.body as Errors).errors[0]).toMatchObject({ status: '404', title: 'Not Found' });
    }
    for (const [method, path, body] of [
      ['PATCH', `/admin/v1/workspaces/${raw}`, { name: 'x' }],
      ['POST', `/admin/v1/workspaces/${raw}/api-keys`, { name: 'k', permissions: ['read'] }],
      ['DELETE', `/admin/v1/api-keys/${raw}`, undefined],
    ] as const) {
      const answer = await harness.call(method, path, { token: ADMIN_TOKEN, ...(body ? { body } : {}) });
      expect([method, path, answer.status]).toEqual([method, path, 404]);
    }
    expect(contacts.targets.slice(before)).toEqual([]);
  });

  it('passes every id up to 2^53 − 1 to the owning service, whose 404 the caller gets', async () => {
    const { key } = await tenant();
    for (const id of ['1', '2147483648', '1000000000000000', '9007199254740991']) {
      const answer = await harness.call('GET', `/api/v1/contacts/${id}`, { token: key });
      expect([id, answer.status]).toEqual([id, 404]);
      expect(contacts.targets).toContain(`/internal/v1/contacts/${id}`);
    }
  });
});

describe('the breaker in front of a service', () => {
  async function breakerState(upstream: string): Promise<number> {
    const metrics = await harness.call('GET', '/metrics');
    const line = String(metrics.body)
      .split('\n')
      .find(
        (text) => text.startsWith('cms_circuit_breaker_state{') && text.includes(`upstream="${upstream}"`),
      );
    return Number(line?.split(' ').pop());
  }

  it("stays closed under a flood of one workspace's refused reads, and another workspace's reads keep working", async () => {
    const hostile = await tenant('agency');
    const other = await tenant('agency');
    for (let sent = 0; sent < 40; sent += 1) {
      const filtered = await harness.call('GET', '/api/v1/contacts?filter[phone]=%00', {
        token: hostile.key,
      });
      expect(filtered.status).toBe(422);
      expect((filtered.body as Errors).errors[0]!.source).toEqual({
        pointer: '/data/attributes/filter[phone]',
        parameter: 'filter[phone]',
      });
      const unknown = await harness.call('GET', `/api/v1/tags/${sent + 1}`, { token: hostile.key });
      expect(unknown.status).toBe(404);
      const plain = await harness.call('GET', '/api/v1/events?plain=1', { token: hostile.key });
      expect(plain.status).toBe(404);
      expect((plain.body as Errors).errors[0]).toMatchObject({ status: '404' });
    }
    expect(await breakerState('contacts')).toBe(0);
    const read = await harness.call('GET', '/api/v1/contacts', { token: other.key });
    expect(read.status).toBe(200);
  }, 60000);

  it('opens on 5xx answers, so a sick service still fails fast', async () => {
    const { key } = await tenant('agency');
    for (let sent = 0; sent < 12; sent += 1) {
      const answer = await harness.call('GET', '/api/v1/webhook-endpoints', { token: key });
      expect(answer.status).toBe(503);
    }
    expect(await breakerState('webhook-dispatch')).toBe(2);
    expect(await breakerState('contacts')).toBe(0);
  });
});

describe('the published reference', () => {
  type Parameter = { name: string; in: string; schema?: Record<string, unknown> };
  type Paths = Record<string, Record<string, { parameters?: Parameter[] }>>;

  it('declares every id in a path with the form it must have', async () => {
    const paths = ((await harness.call('GET', '/openapi.json')).body as { paths: Paths }).paths;
    const integer = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };
    const uuid = { type: 'string', format: 'uuid' };
    for (const [path, method, name, schema] of [
      ['/api/v1/contacts/{contact_id}', 'get', 'contact_id', integer],
      ['/api/v1/contacts/{contact_id}/channels/{channel}', 'put', 'contact_id', integer],
      ['/api/v1/tags/{tag_id}', 'delete', 'tag_id', integer],
      ['/api/v1/integrations/{id}', 'get', 'id', integer],
      ['/api/v1/webhook-endpoints/{id}/deliveries/{delivery_id}/redeliver', 'post', 'id', uuid],
      ['/api/v1/webhook-endpoints/{id}/deliveries/{delivery_id}/redeliver', 'post', 'delivery_id', uuid],
      ['/admin/v1/workspaces/{id}', 'patch', 'id', integer],
      ['/admin/v1/api-keys/{id}', 'delete', 'id', integer],
    ] as const) {
      const parameters = paths[path]?.[method]?.parameters ?? [];
      expect([path, name, parameters.find((parameter) => parameter.name === name)]).toEqual([
        path,
        name,
        expect.objectContaining({ in: 'path', schema: expect.objectContaining(schema) }),
      ]);
    }
  });
});
