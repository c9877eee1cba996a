import { createHash, createHmac } from 'node:crypto';

import { decryptSecret } from '@cms/contracts';
import { migrationDrift } from '@cms/persistence';
import { DataSource } from 'typeorm';

import {
  ADMIN_TOKEN,
  readTopic,
  SECRETS_KEY,
  startHarness,
  type Answer,
  type Harness,
} from './gateway.harness';

const PUBLIC_BASE_URL = 'https://hooks.example.test';
/** Shortened from 60 so that the rate-limit test can wait one out; the counts stay the specification's. */
const WINDOW_SECONDS = 20;

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ PUBLIC_BASE_URL, RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS) });
});

afterAll(async () => {
  await harness?.stop();
});

type Data = { data: Record<string, unknown> };
type List = { data: Array<Record<string, unknown>>; meta: Record<string, number> };
type Errors = {
  errors: Array<{ status: string; title: string; detail: string; source?: { pointer: string } }>;
};

interface Created {
  id: number;
  token: string;
  secret: string;
  body: Record<string, unknown>;
}

async function tenant(
  plan = 'pro',
  permissions = ['read', 'create'],
): Promise<{ workspaceId: number; key: string }> {
  const workspace = await harness.call('POST', '/admin/v1/workspaces', {
    token: ADMIN_TOKEN,
    body: { name: 'Acme', plan },
  });
  const workspaceId = (workspace.body as Data).data.id as number;
  const key = await harness.call('POST', `/admin/v1/workspaces/${workspaceId}/api-keys`, {
    token: ADMIN_TOKEN,
    body: { name: 'k', permissions },
  });
  return { workspaceId, key: (key.body as Data).data.key as string };
}

async function createIntegration(key: string, body: Record<string, unknown> = {}): Promise<Created> {
  const answer = await harness.call('POST', '/api/v1/integrations', {
    token: key,
    body: { type: 'typeform', name: 'Signup form', ...body },
  });
  expect(answer.status).toBe(201);
  const data = (answer.body as Data).data;
  const url = String(data.webhook_url);
  return {
    id: data.id as number,
    token: url.slice(url.lastIndexOf('/') + 1),
    secret: String(data.signing_secret),
    body: data,
  };
}

function sign(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

function post(token: string, body: string, headers: Record<string, string> = {}): Promise<Answer> {
  return harness.call('POST', `/webhook/integration/${token}`, {
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

describe('POST /api/v1/integrations', () => {
  it('answers 201 with id, type, name, config, an absolute webhook_url and the signing secret', async () => {
    const { key } = await tenant();
    const answer = await harness.call('POST', '/api/v1/integrations', {
      token: key,
      body: {
        type: 'typeform',
        name: 'Signup form',
        credentials: { api_key: 'tf_live_credential_value' },
        config: {
          sync_frequency: 'hourly',
          field_mappings: [{ source: 'form_response.answers.0.phone_number', target: 'phone' }],
        },
      },
    });
    expect(answer.status).toBe(201);
    expect((answer.body as Data).data).toEqual({
      id: expect.any(Number),
      type: 'typeform',
      name: 'Signup form',
      config: {
        sync_frequency: 'hourly',
        field_mappings: [{ source: 'form_response.answers.0.phone_number', target: 'phone' }],
      },
      webhook_url: expect.stringMatching(
        /^https:\/\/hooks\.example\.test\/webhook\/integration\/[A-Za-z0-9_-]{43}$/,
      ),
      signing_secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(answer.headers.get('x-ratelimit-limit')).toBe('120');
  });

  it('fills in the config when it is left out', async () => {
    const { key } = await tenant();
    const created = await createIntegration(key);
    expect(created.body.config).toEqual({ sync_frequency: null, field_mappings: [] });
  });

  it('never shows the signing secret, the credentials or the URL token again', async () => {
    const { key } = await tenant();
    const created = await createIntegration(key, { credentials: { password: 'hunter2-credential' } });
    const one = await harness.call('GET', `/api/v1/integrations/${created.id}`, { token: key });
    const list = await harness.call('GET', '/api/v1/integrations', { token: key });
    expect(one.status).toBe(200);
    expect((one.body as Data).data).toEqual({
      id: created.id,
      type: 'typeform',
      name: 'Signup form',
      config: { sync_frequency: null, field_mappings: [] },
      created_at: created.body.created_at,
      updated_at: created.body.updated_at,
    });
    expect(list.status).toBe(200);
    expect((list.body as List).data.map((row) => row.id)).toEqual([created.id]);
    expect((list.body as List).meta).toEqual({ current_page: 1, per_page: 25, total: 1, last_page: 1 });
    for (const text of [JSON.stringify(one.body), JSON.stringify(list.body)]) {
      expect(text).not.toContain(created.secret);
      expect(text).not.toContain(created.token);
      expect(text).not.toContain('hunter2-credential');
      expect(text).not.toMatch(/credential|secret|token/i);
    }
  });

  it('keeps the credentials and the signing secret only sealed, and the token only hashed, in its table and on the log', async () => {
    const { key } = await tenant();
    const created = await createIntegration(key, { credentials: { password: 'sealed-credential-value' } });

    const rows: Array<Record<string, unknown>> = await harness.gateway.app
      .get(DataSource)
      .query('SELECT * FROM integrations WHERE id = $1', [created.id]);
    const row = rows[0]!;
    const stored = JSON.stringify(rows);
    for (const clear of [created.secret, created.token, 'sealed-credential-value'])
      expect(stored).not.toContain(clear);
    expect(decryptSecret(String(row.signing_secret_sealed), SECRETS_KEY)).toBe(created.secret);
    expect(JSON.parse(decryptSecret(String(row.credentials_sealed), SECRETS_KEY))).toEqual({
      password: 'sealed-credential-value',
    });
    expect(row.token_hash).toBe(createHash('sha256').update(created.token).digest('hex'));

    const requests = await readTopic(harness.topics.requests, (values) =>
      values.some((value) => value.includes(`"integration_id":${created.id}`)),
    );
    const log = requests.join('\n');
    expect(log).toContain('integration.create.requested');
    for (const clear of [created.secret, created.token, 'sealed-credential-value'])
      expect(log).not.toContain(clear);
    const facts = await readTopic(harness.topics.gateway, (values) =>
      values.some((value) => value.includes('integration.created')),
    );
    expect(facts.join('\n')).not.toContain('sealed');
  });

  it('answers 422 naming every invalid field, and creates nothing', async () => {
    const { key } = await tenant();
    const answer = await harness.call('POST', '/api/v1/integrations', {
      token: key,
      body: {
        type: 'x'.repeat(101),
        name: ' \t ',
        credentials: 'not-an-object',
        config: {
          sync_frequency: 5,
          field_mappings: [
            { source: 'a..b', target: 'phone' },
            { source: 'email', target: 'fax' },
          ],
          extra: true,
        },
      },
    });
    expect(answer.status).toBe(422);
    const pointers = (answer.body as Errors).errors.map((error) => error.source?.pointer);
    expect(new Set(pointers)).toEqual(
      new Set([
        '/data/attributes/type',
        '/data/attributes/name',
        '/data/attributes/credentials',
        '/data/attributes/config/sync_frequency',
        '/data/attributes/config/field_mappings/0/source',
        '/data/attributes/config/field_mappings/1/target',
        '/data/attributes/config/extra',
      ]),
    );
    const list = await harness.call('GET', '/api/v1/integrations', { token: key });
    expect((list.body as List).data).toEqual([]);
  });

  it('requires the create permission to create, read to list, and an API plan', async () => {
    const reader = await tenant('pro', ['read']);
    expect(
      (
        await harness.call('POST', '/api/v1/integrations', {
          token: reader.key,
          body: { type: 't', name: 'n' },
        })
      ).status,
    ).toBe(403);
    const writer = await tenant('pro', ['create']);
    expect((await harness.call('GET', '/api/v1/integrations', { token: writer.key })).status).toBe(403);
    const starter = await tenant('starter', ['read', 'create']);
    expect(
      (
        await harness.call('POST', '/api/v1/integrations', {
          token: starter.key,
          body: { type: 't', name: 'n' },
        })
      ).status,
    ).toBe(403);
    expect(
      (await harness.call('POST', '/api/v1/integrations', { body: { type: 't', name: 'n' } })).status,
    ).toBe(401);
  });

  it("answers 404 for another workspace's integration and lists only the caller's own", async () => {
    const a = await tenant();
    const b = await tenant();
    const created = await createIntegration(a.key);
    for (const id of [String(created.id), '999999999', 'abc']) {
      const answer = await harness.call('GET', `/api/v1/integrations/${id}`, { token: b.key });
      expect([id, answer.status]).toEqual([id, 404]);
    }
    const list = await harness.call('GET', '/api/v1/integrations', { token: b.key });
    expect((list.body as List).data).toEqual([]);
  });
});

describe('POST /webhook/integration/<token>, refusals at the gateway', () => {
  let created: Created;
  const body = JSON.stringify({ event: 'lead.created', phone: '+14155550100' });

  beforeAll(async () => {
    const { key } = await tenant();
    created = await createIntegration(key, {
      config: { field_mappings: [{ source: 'lead.contact.mail', target: 'email' }] },
    });
  });

  it.each([
    ['no signature header', undefined],
    ['an empty signature', ''],
    ['the prefix alone', 'sha256='],
    ['a signature one hex digit short', () => sign(body, created.secret).slice(1)],
    ['a signature one hex digit long', () => `${sign(body, created.secret)}0`],
    ['a signature that is not hex', () => `sha256=${'z'.repeat(64)}`],
    ['the signature of another body', () => sign(`${body} `, created.secret)],
    ['a signature made with another secret', () => sign(body, 'whsec_other')],
    ['a signature with another prefix', () => `sha1=${sign(body, created.secret)}`],
  ])('answers 401 for %s', async (_case, signature) => {
    const value = typeof signature === 'function' ? signature() : signature;
    const answer = await post(
      created.token,
      body,
      value === undefined ? {} : { 'x-webhook-signature': value },
    );
    expect(answer.status).toBe(401);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect((answer.body as Errors).errors[0]).toMatchObject({ status: '401', title: 'Unauthenticated' });
  });

  it('answers 401 for a body re-serialised to the same JSON with other bytes', async () => {
    const value = { event: 'lead.created', contact: { phone: '+14155550100', name: 'Ann' } };
    const signature = sign(JSON.stringify(value), created.secret);
    const answer = await post(created.token, JSON.stringify(value, null, 2), {
      'x-webhook-signature': signature,
    });
    expect(answer.status).toBe(401);
  });

  it('answers 401 for a URL that names no integration', async () => {
    for (const token of ['A'.repeat(43), 'short', `${created.token}x`]) {
      const answer = await post(token, body, { 'x-webhook-signature': sign(body, created.secret) });
      expect([token, answer.status]).toEqual([token, 401]);
      expect(answer.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });

  it('answers 413 for a body over 1 MiB', async () => {
    const huge = JSON.stringify({ phone: '+14155550100', data: { blob: 'x'.repeat(1024 * 1024) } });
    const answer = await post(created.token, huge, { 'x-webhook-signature': sign(huge, created.secret) });
    expect(answer.status).toBe(413);
    expect((answer.body as Errors).errors[0]!.title).toBe('Payload Too Large');
  });

  it('answers 400 for signed bytes that are not JSON, and 422 for JSON that is not an object', async () => {
    const malformed = '{"phone": ';
    const bad = await post(created.token, malformed, {
      'x-webhook-signature': sign(malformed, created.secret),
    });
    expect(bad.status).toBe(400);
    const array = '[1, 2]';
    const notObject = await post(created.token, array, {
      'x-webhook-signature': sign(array, created.secret),
    });
    expect(notObject.status).toBe(422);
  });

  it('answers 422 for a payload without a phone, an email or an ID', async () => {
    for (const payload of [
      { event: 'lead.created', name: 'Ann' },
      { contact: { name: 'Ann', phone: '  ' } },
      { lead: { contact: {} }, email: null },
    ]) {
      const text = JSON.stringify(payload);
      const answer = await post(created.token, text, { 'x-webhook-signature': sign(text, created.secret) });
      expect(answer.status).toBe(422);
      expect((answer.body as Errors).errors[0]!.source?.pointer).toBe('/data/attributes/contact');
    }
  });

  it('answers 422 with pointers to the places of the payload the bad values came from', async () => {
    const text = JSON.stringify({
      event: 'Not A Name',
      phone: '1'.repeat(31),
      lead: { contact: { mail: 'not-an-email' } },
      data: 'not-an-object',
      id: { nested: true },
    });
    const idAnswer = await post(created.token, text, { 'x-webhook-signature': sign(text, created.secret) });
    expect(idAnswer.status).toBe(422);
    expect((idAnswer.body as Errors).errors.map((error) => error.source?.pointer)).toEqual([
      '/data/attributes/id',
    ]);

    const { id: _id, ...rest } = JSON.parse(text) as Record<string, unknown>;
    const withoutId = JSON.stringify(rest);
    const answer = await post(created.token, withoutId, {
      'x-webhook-signature': sign(withoutId, created.secret),
    });
    expect(answer.status).toBe(422);
    expect(new Set((answer.body as Errors).errors.map((error) => error.source?.pointer))).toEqual(
      new Set([
        '/data/attributes/event',
        '/data/attributes/phone',
        '/data/attributes/lead/contact/mail',
        '/data/attributes/data',
      ]),
    );
  });

  it('answers 422 for an event dated more than an hour after receipt, or data over 64 KiB, as POST /api/v1/events does', async () => {
    for (const [payload, pointer] of [
      [
        { event: 'order.paid', phone: '+14155550100', occurred_at: '9999-12-31' },
        '/data/attributes/occurred_at',
      ],
      [
        {
          event: 'order.paid',
          phone: '+14155550100',
          occurred_at: new Date(Date.now() + 2 * 60 * 60 * 1000).toISOString(),
        },
        '/data/attributes/occurred_at',
      ],
      [
        { event: 'order.paid', phone: '+14155550100', data: { blob: 'x'.repeat(64 * 1024) } },
        '/data/attributes/data',
      ],
      [
        { phone: '+14155550100', contact: { data: { blob: 'x'.repeat(64 * 1024) } } },
        '/data/attributes/contact/data',
      ],
    ] as const) {
      const text = JSON.stringify(payload);
      const answer = await post(created.token, text, { 'x-webhook-signature': sign(text, created.secret) });
      expect([pointer, answer.status]).toEqual([pointer, 422]);
      expect((answer.body as Errors).errors.map((error) => error.source?.pointer)).toEqual([pointer]);
    }
  });

  it('answers 422 for an Idempotency-Key longer than 255 characters', async () => {
    const answer = await post(created.token, body, {
      'x-webhook-signature': sign(body, created.secret),
      'idempotency-key': 'k'.repeat(256),
    });
    expect(answer.status).toBe(422);
    expect((answer.body as Errors).errors[0]!.source?.pointer).toBe('/data/attributes/idempotency_key');
  });

  it('puts no request on the log for any refused payload', async () => {
    const requests = await readTopic(harness.topics.requests, (values) => values.length > 0);
    const types = new Set(requests.map((value) => (JSON.parse(value) as { type: string }).type));
    expect(types.has('event.record.requested')).toBe(false);
    expect(types.has('contact.ingest.requested')).toBe(false);
  });
});

describe('the rate limit of the inbound webhook URL', () => {
  it('allows 1,200 requests a minute per integration with headers on every answer, refuses the 1,201st with 429 and Retry-After, and spends no API budget', async () => {
    const { key } = await tenant();
    const created = await createIntegration(key);
    const other = await createIntegration(key);
    // Unsigned requests are counted too: the limit bounds what anyone who knows the URL can cost.
    const answers: Answer[] = [];
    for (let round = 0; round < 24; round += 1) {
      answers.push(...(await Promise.all(Array.from({ length: 50 }, () => post(created.token, '{}')))));
    }
    expect(answers.every((answer) => answer.status === 401)).toBe(true);
    expect(new Set(answers.map((answer) => answer.headers.get('x-ratelimit-limit')))).toEqual(
      new Set(['1200']),
    );
    const remaining = answers
      .map((answer) => Number(answer.headers.get('x-ratelimit-remaining')))
      .sort((x, y) => y - x);
    expect(remaining).toEqual(Array.from({ length: 1200 }, (_, i) => 1199 - i));

    const text = JSON.stringify({ phone: '+14155550100' });
    const over = await post(created.token, text, { 'x-webhook-signature': sign(text, created.secret) });
    expect(over.status).toBe(429);
    expect((over.body as Errors).errors[0]!.title).toBe('Too Many Requests');
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);

    // Another integration of the same workspace, and the workspace's API key, have their whole budgets.
    const sibling = await post(other.token, '{}');
    expect([sibling.status, sibling.headers.get('x-ratelimit-remaining')]).toEqual([401, '1199']);
    const read = await harness.call('GET', '/api/v1/integrations', { token: key });
    expect([read.status, read.headers.get('x-ratelimit-remaining')]).toEqual([200, '117']);

    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 200));
    const again = await post(created.token, '{}');
    expect([again.status, again.headers.get('x-ratelimit-remaining')]).toEqual([401, '1199']);
  }, 90000);
});

describe('the published reference', () => {
  it('documents the integration routes and the inbound webhook with their body schemas', async () => {
    const answer = await harness.call('GET', '/openapi.json');
    const document = answer.body as {
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: {
              content: Record<string, { schema: { $ref?: string; properties?: Record<string, unknown> } }>;
            };
            responses: Record<string, unknown>;
            security?: unknown[];
          }
        >
      >;
      components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
    };
    const create = document.paths['/api/v1/integrations']!.post!;
    const ref = create.requestBody!.content['application/json']!.schema.$ref!;
    const schema = document.components.schemas[ref.split('/').pop()!]!;
    expect(Object.keys(schema.properties ?? {}).sort()).toEqual(['config', 'credentials', 'name', 'type']);
    expect(schema.required?.sort()).toEqual(['name', 'type']);
    expect(Object.keys(document.components.schemas.IntegrationConfigBody!.properties ?? {}).sort()).toEqual([
      'field_mappings',
      'sync_frequency',
    ]);
    expect(create.responses['201']).toMatchObject({
      content: {
        'application/json': {
          schema: { properties: { data: { $ref: '#/components/schemas/IntegrationCreated' } } },
        },
      },
    });
    expect(document.components.schemas.IntegrationCreated!.required).toEqual(
      expect.arrayContaining(['webhook_url', 'signing_secret']),
    );
    expect(document.components.schemas.Integration!.required).not.toContain('signing_secret');
    expect(document.paths['/api/v1/integrations']!.get).toBeDefined();
    expect(document.paths['/api/v1/integrations/{id}']!.get).toBeDefined();

    const inbound = document.paths['/webhook/integration/{token}']!.post!;
    expect(Object.keys(inbound.requestBody!.content['application/json']!.schema.properties ?? {})).toEqual(
      expect.arrayContaining(['event', 'contact', 'data', 'id', 'phone', 'email', 'opt_in']),
    );
    expect(Object.keys(inbound.responses)).toEqual(
      expect.arrayContaining(['202', '200', '401', '413', '422', '429']),
    );
    expect(inbound.security).toEqual([]);
  });
});

describe('the schema', () => {
  it('has migrations that match the entities (no drift)', async () => {
    expect(await migrationDrift(harness.gateway.app.get(DataSource))).toEqual([]);
  });
});
