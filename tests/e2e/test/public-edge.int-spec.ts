import fc from 'fast-check';

import { System } from '../src';

type Errors = {
  errors: Array<{ status: string; title: string; detail: string; source?: { pointer: string } }>;
};

interface RouteCase {
  method: string;
  path: string;
  permission: 'read' | 'create' | 'update' | 'delete';
  body?: unknown;
}

/** Every public route that exists, with the permission extensions §3 gives it. */
const ROUTES: RouteCase[] = [
  { method: 'GET', path: '/api/v1/contacts', permission: 'read' },
  { method: 'GET', path: '/api/v1/contacts/1', permission: 'read' },
  {
    method: 'POST',
    path: '/api/v1/contacts/upsert',
    permission: 'create',
    body: { name: 'Ann', phone: '+14155550100' },
  },
  {
    method: 'POST',
    path: '/api/v1/contacts/batch',
    permission: 'create',
    body: { contacts: [{ name: 'Bo', phone: '+14155550101' }] },
  },
  { method: 'PUT', path: '/api/v1/contacts/1', permission: 'update', body: { name: 'Ann B' } },
  {
    method: 'PUT',
    path: '/api/v1/contacts/1/channels/telegram',
    permission: 'update',
    body: { external_id: '123' },
  },
  { method: 'GET', path: '/api/v1/tags', permission: 'read' },
  { method: 'GET', path: '/api/v1/tags/1', permission: 'read' },
  { method: 'POST', path: '/api/v1/tags', permission: 'create', body: { name: 'vip', color: '#ff0000' } },
  { method: 'PATCH', path: '/api/v1/tags/1', permission: 'update', body: { name: 'vvip' } },
  { method: 'DELETE', path: '/api/v1/tags/1', permission: 'delete' },
  { method: 'POST', path: '/api/v1/tags/sync', permission: 'update', body: { contact_id: 1, tag_ids: [1] } },
  {
    method: 'POST',
    path: '/api/v1/tags/attach',
    permission: 'update',
    body: { contact_id: 1, tag_ids: [1] },
  },
  {
    method: 'POST',
    path: '/api/v1/tags/detach',
    permission: 'update',
    body: { contact_id: 1, tag_ids: [1] },
  },
  {
    method: 'POST',
    path: '/api/v1/events',
    permission: 'create',
    body: { name: 'order.paid', contact: { email: 'a@example.com' } },
  },
  { method: 'GET', path: '/api/v1/events', permission: 'read' },
  {
    method: 'POST',
    path: '/api/v1/integrations',
    permission: 'create',
    body: { type: 'webhook', name: 'Inbound' },
  },
  { method: 'GET', path: '/api/v1/integrations', permission: 'read' },
  { method: 'GET', path: '/api/v1/integrations/1', permission: 'read' },
];

let system: System;

beforeAll(async () => {
  system = await System.start(['gateway', 'contacts'], { RATE_LIMIT_WINDOW_SECONDS: '30' });
}, 120000);

afterAll(async () => {
  await system?.stop();
});

describe('authentication', () => {
  it.each([
    ['no Authorization header', undefined],
    ['a key that was never issued', 'cms_live_nope'],
    ['a malformed header', 'Basic abc'],
  ])('answers 401 Unauthenticated for %s', async (_case, header) => {
    const answer = await system.call<Errors>('GET', '/api/v1/contacts', {
      headers: header ? { authorization: header.startsWith('Basic') ? header : `Bearer ${header}` } : {},
    });
    expect(answer.status).toBe(401);
    expect(answer.body.errors[0]).toMatchObject({ status: '401', title: 'Unauthenticated' });
  });

  it('stops accepting a deleted key within five seconds', async () => {
    const tenant = await system.tenant();
    expect((await system.call('GET', '/api/v1/tags', { key: tenant.key })).status).toBe(200);
    const deleted = await system.call('DELETE', `/admin/v1/api-keys/${tenant.keyId}`, { admin: true });
    expect(deleted.status).toBe(204);
    const started = Date.now();
    let status = 200;
    while (status !== 401 && Date.now() - started < 6000) {
      status = (await system.call('GET', '/api/v1/tags', { key: tenant.key })).status;
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(401);
    expect(Date.now() - started).toBeLessThanOrEqual(5000);
  });
});

describe('permissions', () => {
  const keys = new Map<string, string>();

  beforeAll(async () => {
    for (const permission of ['read', 'create', 'update', 'delete']) {
      keys.set(permission, (await system.tenant('pro', [permission])).key);
    }
  });

  it.each(ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s: 403 exactly for keys without its permission',
    async (_name, route) => {
      for (const [permission, key] of keys) {
        const answer = await system.call<Errors>(route.method, route.path, {
          key,
          ...(route.body !== undefined ? { body: route.body } : {}),
        });
        if (permission === route.permission) {
          expect([answer.status, permission]).not.toEqual([403, permission]);
          expect(answer.status).toBeLessThan(500);
        } else {
          expect([answer.status, permission]).toEqual([403, permission]);
          expect(answer.body.errors[0]!.title).toBe('Forbidden');
        }
      }
    },
  );
});

describe('plans', () => {
  it('lets a starter workspace record events and nothing else', async () => {
    const { key } = await system.tenant('starter');
    for (const route of ROUTES) {
      const answer = await system.call(route.method, route.path, {
        key,
        ...(route.body !== undefined ? { body: route.body } : {}),
      });
      if (route.method === 'POST' && route.path === '/api/v1/events') expect(answer.status).toBe(202);
      else expect([route.method, route.path, answer.status]).toEqual([route.method, route.path, 403]);
    }
  });

  it.each(['pro', 'business', 'agency'])(
    'lets a %s workspace use every contacts, tags and events route',
    async (plan) => {
      const { key } = await system.tenant(plan);
      for (const route of ROUTES) {
        const answer = await system.call(route.method, route.path, {
          key,
          ...(route.body !== undefined ? { body: route.body } : {}),
        });
        expect([route.method, route.path, answer.status === 403 || answer.status >= 500]).toEqual([
          route.method,
          route.path,
          false,
        ]);
      }
    },
  );
});

describe('rate limits', () => {
  it('counts 120 requests a minute per key, with headers on every answer and 429 with Retry-After on the 121st', async () => {
    const { key } = await system.tenant();
    for (let i = 1; i <= 120; i += 1) {
      const answer = await system.call('GET', '/api/v1/tags', { key });
      expect([
        i,
        answer.status,
        answer.headers.get('x-ratelimit-limit'),
        answer.headers.get('x-ratelimit-remaining'),
      ]).toEqual([i, 200, '120', String(120 - i)]);
    }
    const over = await system.call<Errors>('GET', '/api/v1/tags', { key });
    expect(over.status).toBe(429);
    expect(over.body.errors[0]!.title).toBe('Too Many Requests');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('caps a workspace at 600 requests a minute over all its keys', async () => {
    const first = await system.tenant();
    const keys = [first.key];
    for (let i = 0; i < 5; i += 1) {
      const key = await system.call<{ data: { key: string } }>(
        'POST',
        `/admin/v1/workspaces/${first.workspaceId}/api-keys`,
        {
          admin: true,
          body: { name: `k${i}`, permissions: ['read'] },
        },
      );
      keys.push(key.body.data.key);
    }
    const statuses: number[] = [];
    for (const key of keys.slice(0, 5)) {
      const batch = await Promise.all(
        Array.from({ length: 120 }, () => system.call('GET', '/api/v1/tags', { key })),
      );
      statuses.push(...batch.map((answer) => answer.status));
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(600);
    const sixth = await system.call('GET', '/api/v1/tags', { key: keys[5]! });
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get('retry-after')).not.toBeNull();
  });

  it('counts POST /api/v1/events apart, at 1,200 a minute per workspace', async () => {
    const { key } = await system.tenant();
    const statuses: number[] = [];
    const limits = new Set<string | null>();
    for (let round = 0; round < 24; round += 1) {
      const batch = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          system.call('POST', '/api/v1/events', {
            key,
            body: { name: 'page.viewed', contact: { external_id: `v-${round}-${i}` } },
          }),
        ),
      );
      for (const answer of batch) {
        statuses.push(answer.status);
        limits.add(answer.headers.get('x-ratelimit-limit'));
      }
    }
    expect(statuses.filter((status) => status === 202)).toHaveLength(1200);
    expect(limits).toEqual(new Set(['1200']));
    const over = await system.call('POST', '/api/v1/events', {
      key,
      body: { name: 'page.viewed', contact: { external_id: 'over' } },
    });
    expect(over.status).toBe(429);
    // The API budget of the same key is untouched by events.
    const read = await system.call('GET', '/api/v1/tags', { key });
    expect([read.status, read.headers.get('x-ratelimit-remaining')]).toEqual([200, '119']);
  }, 180000);
});

describe('workspaces are isolated', () => {
  it("answers 404 for another workspace's contact, tag and their operations", async () => {
    const a = await system.tenant();
    const b = await system.tenant();
    const contact = await system.call<{ data: { id: number } }>('POST', '/api/v1/contacts/upsert', {
      key: a.key,
      body: { name: 'Own', phone: '+14155550123' },
    });
    const tag = await system.call<{ data: { id: number } }>('POST', '/api/v1/tags', {
      key: a.key,
      body: { name: 'mine' },
    });
    expect([contact.status, tag.status]).toEqual([201, 201]);
    const contactId = contact.body.data.id;
    const tagId = tag.body.data.id;
    const foreign: Array<[string, string, unknown?]> = [
      ['GET', `/api/v1/contacts/${contactId}`],
      ['PUT', `/api/v1/contacts/${contactId}`, { name: 'Stolen' }],
      ['PUT', `/api/v1/contacts/${contactId}/channels/telegram`, { external_id: '42' }],
      ['GET', `/api/v1/tags/${tagId}`],
      ['PATCH', `/api/v1/tags/${tagId}`, { name: 'stolen' }],
      ['DELETE', `/api/v1/tags/${tagId}`],
      ['POST', '/api/v1/tags/attach', { contact_id: contactId, tag_ids: [tagId] }],
    ];
    for (const [method, path, body] of foreign) {
      const answer = await system.call<Errors>(method, path, {
        key: b.key,
        ...(body !== undefined ? { body } : {}),
      });
      expect([method, path, answer.status]).toEqual([method, path, 404]);
    }
    const own = await system.call<{ data: { name: string } }>('GET', `/api/v1/contacts/${contactId}`, {
      key: a.key,
    });
    expect(own.body.data.name).toBe('Own');
  });
});

describe('fuzzing the public paths', () => {
  it('answers random and malformed bodies and headers with 4xx JSON:API errors, never a 5xx or a hang', async () => {
    const { key } = await system.tenant('agency');
    const json = fc.oneof(
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc.string(),
      fc.constantFrom(
        '{',
        '[]',
        'null',
        '{"name": 1e999}',
        '{"__proto__": {"x": 1}}',
        '\u0000',
        '{"contact": {"phone": "' + '9'.repeat(5000) + '"}}',
      ),
    );
    const headerValue = fc.string({ maxLength: 40 }).filter((value) => /^[\x20-\x7e]*$/.test(value));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROUTES),
        json,
        fc.constantFrom(
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/json; charset=utf-8',
        ),
        fc.option(headerValue),
        fc.boolean(),
        async (route, body, contentType, idempotencyKey, authenticated) => {
          const headers: Record<string, string> = { 'content-type': contentType };
          if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;
          const controller = AbortSignal.timeout(15000);
          const response = await fetch(`${system.url}${route.path}`, {
            method: route.method,
            headers: { ...headers, ...(authenticated ? { authorization: `Bearer ${key}` } : {}) },
            ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body }),
            signal: controller,
          });
          const text = await response.text();
          expect(response.status).toBeLessThan(500);
          if (response.status >= 400) {
            expect(response.headers.get('content-type')).toBe('application/json');
            const parsed = JSON.parse(text) as Errors;
            expect(parsed.errors.length).toBeGreaterThan(0);
            expect(text).not.toMatch(/\bat .+\.(js|ts):\d+/);
          }
        },
      ),
      { numRuns: 300 },
    );
  }, 240000);
});
