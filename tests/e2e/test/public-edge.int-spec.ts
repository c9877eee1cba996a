import { eventually } from '@cms/testing';
import fc from 'fast-check';

import { System } from '../src';
import { broken, hostileBodies, NOT_JSON, type FuzzRoute } from '../src/edge-fuzz';
import { send, webhookSignature, type TimedAnswer } from '../src/hostile';

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
  {
    method: 'POST',
    path: '/api/v1/channels',
    permission: 'create',
    body: { type: 'sms', name: 'Sandbox', provider: 'sandbox' },
  },
  { method: 'GET', path: '/api/v1/channels', permission: 'read' },
  { method: 'GET', path: '/api/v1/channels/1', permission: 'read' },
  { method: 'PATCH', path: '/api/v1/channels/1', permission: 'update', body: { name: 'Renamed' } },
  { method: 'DELETE', path: '/api/v1/channels/1', permission: 'delete' },
  {
    method: 'POST',
    path: '/api/v1/channels/1/sandbox/inbound',
    permission: 'create',
    body: { from: '+14155550100', text: 'hi' },
  },
  {
    method: 'POST',
    path: '/api/v1/templates',
    permission: 'create',
    body: { name: 'welcome', channel: 'sms', body: 'Hi {{ contact.name }}' },
  },
  { method: 'GET', path: '/api/v1/templates', permission: 'read' },
  { method: 'GET', path: '/api/v1/templates/1', permission: 'read' },
  { method: 'PATCH', path: '/api/v1/templates/1', permission: 'update', body: { body: 'Hello' } },
  { method: 'DELETE', path: '/api/v1/templates/1', permission: 'delete' },
  { method: 'POST', path: '/api/v1/templates/1/render', permission: 'read', body: { variables: {} } },
  {
    method: 'POST',
    path: '/api/v1/messages',
    permission: 'create',
    body: { contact_id: 1, route: [{ channel: 'sms', template_id: 1 }] },
  },
  { method: 'GET', path: '/api/v1/messages', permission: 'read' },
  { method: 'GET', path: `/api/v1/messages/msg_${'0'.repeat(32)}`, permission: 'read' },
  {
    method: 'POST',
    path: '/api/v1/suppressions',
    permission: 'create',
    body: { channel: 'sms', address: '+14155550100' },
  },
  { method: 'GET', path: '/api/v1/suppressions', permission: 'read' },
  { method: 'GET', path: `/api/v1/suppressions/sup_${'0'.repeat(32)}`, permission: 'read' },
  { method: 'DELETE', path: `/api/v1/suppressions/sup_${'0'.repeat(32)}`, permission: 'delete' },
];

let system: System;
/** The rate-limit window of the suite's gateway: short, so the fuzzing keys do not run out. */
const WINDOW_SECONDS = 30;

beforeAll(async () => {
  system = await System.start(
    ['gateway', 'contacts', 'webhook-dispatch', 'messaging', 'automations', 'broadcasts'],
    {
      RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
    },
  );
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
    const deletedAt = Date.now();
    // The gateway uses what the database said of a key for five seconds at most (its key cache): a call
    // begun more than five seconds after the delete was answered is judged after that, however long the
    // call itself then takes, and is refused. Calls go on until one is refused, or one begun past the
    // five seconds has been answered.
    const calls: Array<{ afterMs: number; status: number }> = [];
    for (;;) {
      const afterMs = Date.now() - deletedAt;
      const { status } = await system.call('GET', '/api/v1/tags', { key: tenant.key });
      calls.push({ afterMs, status });
      if (status === 401 || afterMs > 5000) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(calls.at(-1)!.status).toBe(401);
    expect(calls.filter((call) => call.status !== 401 && call.afterMs > 5000)).toEqual([]);
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

  it('judges every write after a plan change by the new plan, on every gateway replica', async () => {
    const other = await system.replica('gateway');
    const { workspaceId, key } = await system.tenant('business');
    let tags = 0;
    const tag = (url?: string) =>
      system.call('POST', '/api/v1/tags', {
        key,
        body: { name: `plan ${(tags += 1)}` },
        ...(url ? { url } : {}),
      });
    const endpoint = (url?: string) =>
      system.call('POST', '/api/v1/webhook-endpoints', {
        key,
        body: { url: 'https://hooks.example.invalid/plan', event_types: ['consent.granted'] },
        ...(url ? { url } : {}),
      });
    // Both replicas have judged this key by the business plan, and keep its principal in their caches.
    expect([(await tag()).status, (await tag(other)).status]).toEqual([201, 201]);
    expect([(await endpoint()).status, (await endpoint(other)).status]).toEqual([201, 201]);

    const changed = await system.call('PATCH', `/admin/v1/workspaces/${workspaceId}`, {
      admin: true,
      body: { plan: 'pro' },
    });
    expect(changed.status).toBe(200);
    expect([(await endpoint()).status, (await endpoint(other)).status]).toEqual([403, 403]);
    expect([(await tag()).status, (await tag(other)).status]).toEqual([201, 201]);

    const starter = await system.call('PATCH', `/admin/v1/workspaces/${workspaceId}`, {
      admin: true,
      body: { plan: 'starter' },
    });
    expect(starter.status).toBe(200);
    expect([(await tag()).status, (await tag(other)).status]).toEqual([403, 403]);
    const event = { name: 'plan.changed', contact: { external_id: 'plan-1' } };
    expect((await system.call('POST', '/api/v1/events', { key, body: event, url: other })).status).toBe(202);
    // Reads follow within the key cache's five seconds.
    await eventually(
      'reads refused on both replicas',
      async () => {
        const statuses = [
          (await system.call('GET', '/api/v1/tags', { key })).status,
          (await system.call('GET', '/api/v1/tags', { key, url: other })).status,
        ];
        return statuses.every((status) => status === 403) || undefined;
      },
      10000,
    );

    const back = await system.call('PATCH', `/admin/v1/workspaces/${workspaceId}`, {
      admin: true,
      body: { plan: 'agency' },
    });
    expect(back.status).toBe(200);
    expect([(await endpoint()).status, (await endpoint(other)).status]).toEqual([201, 201]);
  });

  it.each(['pro', 'business', 'agency'])(
    'lets a %s workspace use every contacts, tags, events, integrations and messaging route',
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
    const startedAt = Date.now();
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
    // The 1,201st event of one window is refused. A machine so busy that the burst outlasted the
    // suite's window (RATE_LIMIT_WINDOW_SECONDS) counts the last events in the next window instead.
    if (Date.now() - startedAt < WINDOW_SECONDS * 1000) expect(over.status).toBe(429);
    else expect([202, 429]).toContain(over.status);
    // The API budget of the same key is untouched by events.
    const read = await system.call('GET', '/api/v1/tags', { key });
    expect([read.status, read.headers.get('x-ratelimit-remaining')]).toEqual([200, '119']);
  }, 180000);
});

describe('workspaces are isolated', () => {
  it("answers 404 for another workspace's contact and tag in a path, 422 at the pointer in a body", async () => {
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
    ];
    for (const [method, path, body] of foreign) {
      const answer = await system.call<Errors>(method, path, {
        key: b.key,
        ...(body !== undefined ? { body } : {}),
      });
      expect([method, path, answer.status]).toEqual([method, path, 404]);
    }
    // extensions §1: an id in a body that names nothing in the workspace (another's included) is 422.
    const attach = await system.call<Errors>('POST', '/api/v1/tags/attach', {
      key: b.key,
      body: { contact_id: contactId, tag_ids: [tagId] },
    });
    expect(attach.status).toBe(422);
    expect(attach.body.errors.map((error) => error.source?.pointer)).toContain('/data/attributes/contact_id');
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

/**
 * Every rule of extensions §1 on every public path with a body (the public API, PUT and PATCH
 * included, the operator API, and the inbound webhook with a valid signature): one rule broken per
 * request, and the exact answer §1 gives for it. FUZZ_SEED replays a run, FUZZ_RUNS sets its length.
 */
describe('fuzzing every §1 rule on every path with a body', () => {
  const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const numRuns = Number(process.env.FUZZ_RUNS ?? 250);

  interface FuzzTenant {
    workspaceId: number;
    keys: string[];
    contactId: number;
    tagId: number;
    endpointId: string;
    inbound: { token: string; secret: string };
  }
  type PathRoute = FuzzRoute & { path: string };

  /** Several workspaces with several keys, so that no rate limit stops the run (§3: 120/key, 600/workspace). */
  const pool: FuzzTenant[] = [];
  let calls = 0;

  beforeAll(async () => {
    for (let w = 0; w < 3; w += 1) {
      const { workspaceId, key } = await system.tenant('agency');
      const keys = [key];
      for (let k = 0; k < 3; k += 1) {
        const more = await system.call<{ data: { key: string } }>(
          'POST',
          `/admin/v1/workspaces/${workspaceId}/api-keys`,
          { admin: true, body: { name: `fuzz ${k}`, permissions: ['read', 'create', 'update', 'delete'] } },
        );
        keys.push(more.body.data.key);
      }
      const contact = await system.call<{ data: { id: number } }>('POST', '/api/v1/contacts/upsert', {
        key,
        body: { name: 'Fuzz', phone: `+1415555${String(7000 + w)}` },
      });
      const tag = await system.call<{ data: { id: number } }>('POST', '/api/v1/tags', {
        key,
        body: { name: 'fuzz' },
      });
      const endpoint = await system.call<{ data: { id: string } }>('POST', '/api/v1/webhook-endpoints', {
        key,
        body: { url: 'https://hooks.example.invalid/fuzz', event_types: ['consent.granted'] },
      });
      const integration = await system.call<{ data: { webhook_url: string; signing_secret: string } }>(
        'POST',
        '/api/v1/integrations',
        { key, body: { type: 'webhook', name: 'Fuzz' } },
      );
      expect([contact.status, tag.status, endpoint.status, integration.status]).toEqual([201, 201, 201, 201]);
      pool.push({
        workspaceId,
        keys,
        contactId: contact.body.data.id,
        tagId: tag.body.data.id,
        endpointId: endpoint.body.data.id,
        inbound: {
          token: integration.body.data.webhook_url.split('/').pop()!,
          secret: integration.body.data.signing_secret,
        },
      });
    }
  }, 60000);

  /** The routes of one workspace, each with a body it accepts and where its text, objects and ids sit. */
  function routesOf(t: FuzzTenant): PathRoute[] {
    const api = 'api' as const;
    return [
      {
        name: 'record an event',
        method: 'POST',
        path: '/api/v1/events',
        caller: api,
        body: {
          name: 'fuzz.event',
          contact: { external_id: 'fuzz-1', name: 'Fuzz', email: 'fuzz@example.com', data: { plan: 'gold' } },
          data: { total: 1, items: ['a'] },
        },
        text: [
          ['name'],
          ['contact', 'external_id'],
          ['contact', 'name'],
          ['contact', 'email'],
          ['data', 'items', 0],
        ],
        objects: [['data'], ['contact'], ['contact', 'data']],
        freeForm: [['data'], ['contact', 'data']],
        strings: [['name'], ['contact', 'external_id']],
      },
      {
        name: 'upsert a contact',
        method: 'POST',
        path: '/api/v1/contacts/upsert',
        caller: api,
        body: {
          name: 'Fuzz',
          phone: `+1415555${String(7000 + (t.workspaceId % 1000)).slice(-4)}`,
          source: 'fuzz',
          data: { a: 'b' },
        },
        text: [['name'], ['source'], ['data', 'a']],
        objects: [['data']],
        freeForm: [['data']],
        strings: [['name'], ['source']],
      },
      {
        name: 'batch upsert',
        method: 'POST',
        path: '/api/v1/contacts/batch',
        caller: api,
        body: { contacts: [{ name: 'Fuzz batch', external_id: 'fuzz-batch', data: { a: 'b' } }] },
        // §1's text and depth rules hold for the whole body; an element's field of the wrong type is
        // that element's own error, answered in its result (200), so no `strings` here.
        text: [
          ['contacts', 0, 'name'],
          ['contacts', 0, 'external_id'],
          ['contacts', 0, 'data', 'a'],
        ],
        freeForm: [['contacts', 0, 'data']],
      },
      {
        name: 'update a contact',
        method: 'PUT',
        path: `/api/v1/contacts/${t.contactId}`,
        caller: api,
        body: { name: 'Fuzz', source: 'fuzz', data: { a: 'b' } },
        text: [['name'], ['source'], ['data', 'a']],
        objects: [['data']],
        freeForm: [['data']],
        strings: [['name'], ['source']],
      },
      {
        name: 'link a channel',
        method: 'PUT',
        path: `/api/v1/contacts/${t.contactId}/channels/telegram`,
        caller: api,
        body: { external_id: `fuzz-${t.workspaceId}` },
        text: [['external_id']],
        strings: [['external_id']],
      },
      {
        name: 'create a tag',
        method: 'POST',
        path: '/api/v1/tags',
        caller: api,
        body: { name: 'fuzz-tag', color: '#00ff00' },
        text: [['name'], ['color']],
        strings: [['name'], ['color']],
      },
      {
        name: 'rename a tag',
        method: 'PATCH',
        path: `/api/v1/tags/${t.tagId}`,
        caller: api,
        body: { name: 'fuzz' },
        text: [['name']],
        strings: [['name']],
      },
      ...(['sync', 'attach', 'detach'] as const).map((operation): PathRoute => ({
        name: `tags ${operation}`,
        method: 'POST',
        path: `/api/v1/tags/${operation}`,
        caller: api,
        body: { contact_id: t.contactId, tag_ids: [t.tagId] },
        text: [],
        ids: [['contact_id'], ['tag_ids', 0]],
      })),
      {
        name: 'create an integration',
        method: 'POST',
        path: '/api/v1/integrations',
        caller: api,
        body: { type: 'webhook', name: 'Fuzz', credentials: { token: 'x' } },
        text: [['type'], ['name'], ['credentials', 'token']],
        objects: [['credentials']],
        freeForm: [['credentials']],
        strings: [['type'], ['name']],
      },
      {
        name: 'create a webhook endpoint',
        method: 'POST',
        path: '/api/v1/webhook-endpoints',
        caller: api,
        body: {
          url: 'https://hooks.example.invalid/fuzz',
          description: 'fuzz',
          event_types: ['consent.granted'],
        },
        text: [['url'], ['description'], ['event_types', 0]],
        strings: [['url'], ['description']],
      },
      {
        name: 'change a webhook endpoint',
        method: 'PATCH',
        path: `/api/v1/webhook-endpoints/${t.endpointId}`,
        caller: api,
        body: { description: 'fuzz' },
        text: [['description']],
        strings: [['description']],
      },
      {
        name: 'create a workspace',
        method: 'POST',
        path: '/admin/v1/workspaces',
        caller: 'admin',
        body: { name: 'Fuzz', plan: 'pro' },
        text: [['name'], ['plan']],
        strings: [['name'], ['plan']],
      },
      {
        name: 'rename a workspace',
        method: 'PATCH',
        path: `/admin/v1/workspaces/${t.workspaceId}`,
        caller: 'admin',
        body: { name: 'Fuzz' },
        text: [['name']],
        strings: [['name']],
      },
      {
        name: 'issue a key',
        method: 'POST',
        path: `/admin/v1/workspaces/${t.workspaceId}/api-keys`,
        caller: 'admin',
        body: { name: 'Fuzz', permissions: ['read'] },
        text: [['name'], ['permissions', 0]],
        strings: [['name']],
      },
      {
        name: 'the inbound webhook',
        method: 'POST',
        path: `/webhook/integration/${t.inbound.token}`,
        caller: 'inbound',
        body: {
          external_id: 'fuzz-inbound',
          name: 'Fuzz',
          contact: { data: { a: 'b' } },
          event: 'fuzz.inbound',
        },
        text: [['external_id'], ['name'], ['contact', 'data', 'a'], ['event']],
        freeForm: [['contact', 'data']],
      },
    ];
  }

  /** Sends as the route's caller: the next key of the workspace, the operator, or a signed delivery. */
  function deliver(
    t: FuzzTenant,
    route: PathRoute,
    body: Buffer,
    contentType: string,
  ): Promise<TimedAnswer<Errors>> {
    calls += 1;
    const headers: Record<string, string> =
      route.caller === 'inbound' ? { 'x-webhook-signature': webhookSignature(body, t.inbound.secret) } : {};
    return send<Errors>(system, route.method, route.path, {
      ...(route.caller === 'admin' ? { admin: true } : {}),
      ...(route.caller === 'api' ? { key: t.keys[calls % t.keys.length]! } : {}),
      body,
      contentType,
      headers,
    });
  }

  /** fast-check's own report, with the seed to replay it first. */
  async function check(property: fc.IAsyncProperty<[unknown, ...unknown[]]>, runs: number): Promise<void> {
    try {
      await fc.assert(property, { seed, numRuns: runs, includeErrorInReport: true });
    } catch (error) {
      throw new Error(`Replay with FUZZ_SEED=${seed}: ${(error as Error).message}`);
    }
  }

  function expectRateLimitHeaders(route: PathRoute, answer: TimedAnswer<Errors>): void {
    if (route.caller === 'admin') return;
    // The inbound webhook answers 413 and 415 before it looks at the URL (docs/api-notes.md).
    if (route.caller === 'inbound' && [413, 415].includes(answer.status)) return;
    expect([
      route.name,
      answer.headers.get('x-ratelimit-limit'),
      answer.headers.get('x-ratelimit-remaining'),
    ]).toEqual([route.name, expect.stringMatching(/^\d+$/), expect.stringMatching(/^\d+$/)]);
  }

  it('answers each broken rule with its exact status (400, 415, 422) and pointer, never anything else', async () => {
    const routes = pool.map(routesOf);
    const throttled: string[] = [];
    const scenario = fc
      .tuple(fc.nat({ max: pool.length - 1 }), fc.nat({ max: routes[0]!.length - 1 }))
      .chain(([w, r]) =>
        broken(routes[w]![r]!).map((breakage) => ({ w, r, route: routes[w]![r]!.name, breakage })),
      );
    await check(
      fc.asyncProperty(scenario, async ({ w, r, breakage }) => {
        const route = routes[w]![r]!;
        const answer = await deliver(pool[w]!, route, breakage.body, breakage.contentType);
        if (answer.status === 429) {
          throttled.push(route.name);
          return;
        }
        const pointers = (answer.body?.errors ?? []).map((error) => error.source?.pointer);
        expect({
          route: `${route.method} ${route.name}`,
          rule: breakage.rule,
          status: answer.status,
          pointer:
            breakage.pointer === undefined || pointers.includes(breakage.pointer) ? 'as §1 says' : pointers,
        }).toEqual({
          route: `${route.method} ${route.name}`,
          rule: breakage.rule,
          status: breakage.status,
          pointer: 'as §1 says',
        });
        expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
        expectRateLimitHeaders(route, answer);
      }),
      numRuns,
    );
    expect(throttled.length).toBeLessThan(numRuns / 10);
  }, 180000);

  it('answers hostile JSON, bytes and content types on every path with a body with a 4xx where §1 refuses them, never a 5xx', async () => {
    const routes = pool.map(routesOf);
    await check(
      fc.asyncProperty(
        fc.nat({ max: pool.length - 1 }),
        fc.nat({ max: routes[0]!.length - 1 }),
        hostileBodies,
        fc.constantFrom('application/json', 'application/json; charset=utf-8', ...NOT_JSON),
        async (w, r, { body, refused }, contentType) => {
          const route = routes[w]![r]!;
          const answer = await deliver(pool[w]!, route, body, contentType);
          const mustRefuse = refused || NOT_JSON.includes(contentType);
          const verdict =
            answer.status >= 500 || (mustRefuse && answer.status < 400) ? answer.status : 'as §1 says';
          expect([route.name, contentType, verdict]).toEqual([route.name, contentType, 'as §1 says']);
          expect(answer.text).not.toMatch(/\bat .+\.(js|ts):\d+/);
          expectRateLimitHeaders(route, answer);
        },
      ),
      numRuns,
    );
  }, 180000);

  it('answers 404 for every path identifier that is not a positive integer up to 2^53 - 1', async () => {
    const t = pool[0]!;
    const ids = fc.oneof(
      fc.constantFrom(
        '2147483648',
        '9007199254740991',
        '9007199254740992',
        '99999999999999999999',
        '0',
        '-1',
        '1e3',
        '0x10',
        '1.5',
        '%20',
        'abc',
        '%00',
      ),
      fc.bigInt({ min: 2n ** 53n, max: 2n ** 70n }).map(String),
    );
    const templates: Array<[string, (id: string) => string, unknown?]> = [
      ['GET', (id) => `/api/v1/contacts/${id}`],
      ['PUT', (id) => `/api/v1/contacts/${id}`, { name: 'Fuzz' }],
      ['PUT', (id) => `/api/v1/contacts/${id}/channels/telegram`, { external_id: 'fuzz' }],
      ['GET', (id) => `/api/v1/tags/${id}`],
      ['PATCH', (id) => `/api/v1/tags/${id}`, { name: 'fuzz' }],
      ['DELETE', (id) => `/api/v1/tags/${id}`],
      ['GET', (id) => `/api/v1/integrations/${id}`],
      ['PATCH', (id) => `/admin/v1/workspaces/${id}`, { name: 'Fuzz' }],
      ['POST', (id) => `/admin/v1/workspaces/${id}/api-keys`, { name: 'Fuzz', permissions: ['read'] }],
      ['DELETE', (id) => `/admin/v1/api-keys/${id}`],
    ];
    await check(
      fc.asyncProperty(fc.constantFrom(...templates), ids, async ([method, path, body], id) => {
        calls += 1;
        const admin = path(id).startsWith('/admin');
        const answer = await send<Errors>(system, method, path(id), {
          ...(admin ? { admin: true } : { key: t.keys[calls % t.keys.length]! }),
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
        expect([method, path(id), answer.status]).toEqual([method, path(id), 404]);
      }),
      Math.ceil(numRuns / 2),
    );
  }, 120000);
});
