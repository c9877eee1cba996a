import { createKafka } from '@cms/kafka';
import { eventually, testStack, uniqueName } from '@cms/testing';
import { DataSource } from 'typeorm';

import { ADMIN_TOKEN, startHarness, type Harness } from './gateway.harness';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});

afterAll(async () => {
  await harness?.stop();
});

type Data = { data: Record<string, unknown> };
type Errors = {
  errors: Array<{ status: string; title: string; detail: string; source?: { pointer: string } }>;
};

async function createWorkspace(name = 'Acme', plan = 'pro'): Promise<Record<string, unknown>> {
  const answer = await harness.call('POST', '/admin/v1/workspaces', {
    token: ADMIN_TOKEN,
    body: { name, plan },
  });
  expect(answer.status).toBe(201);
  return (answer.body as Data).data;
}

async function readTopic(topic: string, until: (values: string[]) => boolean): Promise<string[]> {
  const stack = await testStack();
  const consumer = createKafka({ brokers: stack.kafkaBrokers, clientId: 'reader' }).consumer({
    groupId: uniqueName('reader'),
    maxWaitTimeInMs: 50,
  });
  const values: string[] = [];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({ eachMessage: async ({ message }) => void values.push(message.value!.toString()) });
  try {
    await eventually(`records on ${topic}`, async () => until(values), 20000);
  } finally {
    await consumer.disconnect();
  }
  return values;
}

describe('the operator API', () => {
  it('answers 401 in the JSON:API form without the operator token or with a wrong one', async () => {
    for (const token of [undefined, 'wrong-token-wrong-token']) {
      const answer = await harness.call('POST', '/admin/v1/workspaces', {
        ...(token ? { token } : {}),
        body: { name: 'x', plan: 'pro' },
      });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect((answer.body as Errors).errors[0]).toMatchObject({ status: '401', title: 'Unauthenticated' });
    }
  });

  it('creates a workspace and answers 201 with its id, name, plan and creation time', async () => {
    const workspace = await createWorkspace('Acme Ltd', 'business');
    expect(workspace).toEqual({
      id: expect.any(Number),
      name: 'Acme Ltd',
      plan: 'business',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it('answers 422 naming every invalid field and creates nothing', async () => {
    const answer = await harness.call('POST', '/admin/v1/workspaces', {
      token: ADMIN_TOKEN,
      body: { name: '', plan: 'gold', extra: 1 },
    });
    expect(answer.status).toBe(422);
    const pointers = (answer.body as Errors).errors.map((error) => error.source?.pointer).sort();
    expect(pointers).toEqual(['/data/attributes/extra', '/data/attributes/name', '/data/attributes/plan']);
    expect(
      (answer.body as Errors).errors.every(
        (error) => error.title === 'Validation Error' && error.status === '422',
      ),
    ).toBe(true);
  });

  it('answers 422 for a name made only of white space, and for a null name or plan on PATCH', async () => {
    const blank = await harness.call('POST', '/admin/v1/workspaces', {
      token: ADMIN_TOKEN,
      body: { name: ' \t ', plan: 'pro' },
    });
    expect(blank.status).toBe(422);
    expect((blank.body as Errors).errors.map((error) => error.source?.pointer)).toEqual([
      '/data/attributes/name',
    ]);
    const workspace = await createWorkspace('Kept', 'pro');
    for (const body of [{ name: '   ' }, { name: null }, { plan: null }]) {
      const answer = await harness.call('PATCH', `/admin/v1/workspaces/${String(workspace.id)}`, {
        token: ADMIN_TOKEN,
        body,
      });
      expect([body, answer.status]).toEqual([body, 422]);
    }
    const key = await harness.call('POST', `/admin/v1/workspaces/${String(workspace.id)}/api-keys`, {
      token: ADMIN_TOKEN,
      body: { name: '\u00a0', permissions: ['read'] },
    });
    expect(key.status).toBe(422);
    expect((key.body as Errors).errors.map((error) => error.source?.pointer)).toEqual([
      '/data/attributes/name',
    ]);
  });

  it('changes a workspace plan and name with PATCH', async () => {
    const workspace = await createWorkspace('Before', 'starter');
    const answer = await harness.call('PATCH', `/admin/v1/workspaces/${String(workspace.id)}`, {
      token: ADMIN_TOKEN,
      body: { plan: 'agency' },
    });
    expect(answer.status).toBe(200);
    expect((answer.body as Data).data).toMatchObject({ id: workspace.id, name: 'Before', plan: 'agency' });
  });

  it('answers 404 for a workspace that does not exist or an id that is not a number', async () => {
    for (const id of ['999999999', 'abc', '-1', '1.5']) {
      const answer = await harness.call('PATCH', `/admin/v1/workspaces/${id}`, {
        token: ADMIN_TOKEN,
        body: { plan: 'pro' },
      });
      expect(answer.status).toBe(404);
      expect((answer.body as Errors).errors[0]!.title).toBe('Not Found');
    }
    const key = await harness.call('POST', '/admin/v1/workspaces/999999999/api-keys', {
      token: ADMIN_TOKEN,
      body: { name: 'k', permissions: ['read'] },
    });
    expect(key.status).toBe(404);
  });

  it('issues an API key shown once, stored and logged only as a hash', async () => {
    const workspace = await createWorkspace();
    const answer = await harness.call('POST', `/admin/v1/workspaces/${String(workspace.id)}/api-keys`, {
      token: ADMIN_TOKEN,
      body: { name: 'backend', permissions: ['read', 'create'] },
    });
    expect(answer.status).toBe(201);
    const key = (answer.body as Data).data;
    expect(key).toMatchObject({
      id: expect.any(Number),
      name: 'backend',
      permissions: ['read', 'create'],
      key: expect.stringMatching(/^cms_live_[A-Za-z0-9_-]{43}$/),
    });

    const dataSource = harness.gateway.app.get(DataSource);
    const stored: Array<Record<string, unknown>> = await dataSource.query(
      'SELECT * FROM api_keys WHERE id = $1',
      [key.id],
    );
    expect(JSON.stringify(stored)).not.toContain(String(key.key));
    expect(stored[0]!.key_hash).toMatch(/^[0-9a-f]{64}$/);
    const requests = await readTopic(harness.topics.requests, (values) =>
      values.some((value) => value.includes('apikey.create.requested')),
    );
    expect(requests.join('\n')).not.toContain(String(key.key));
  });

  it('rejects permissions outside read, create, update and delete, and an empty list', async () => {
    const workspace = await createWorkspace();
    for (const permissions of [[], ['admin'], ['read', 'read']]) {
      const answer = await harness.call('POST', `/admin/v1/workspaces/${String(workspace.id)}/api-keys`, {
        token: ADMIN_TOKEN,
        body: { name: 'k', permissions },
      });
      expect(answer.status).toBe(422);
      expect((answer.body as Errors).errors[0]!.source?.pointer).toBe('/data/attributes/permissions');
    }
  });

  it('deletes a key with 204 and answers 404 when it is deleted again', async () => {
    const workspace = await createWorkspace();
    const created = await harness.call('POST', `/admin/v1/workspaces/${String(workspace.id)}/api-keys`, {
      token: ADMIN_TOKEN,
      body: { name: 'k', permissions: ['read'] },
    });
    const id = String((created.body as Data).data.id);
    const first = await harness.call('DELETE', `/admin/v1/api-keys/${id}`, { token: ADMIN_TOKEN });
    expect(first.status).toBe(204);
    expect(first.body).toBeUndefined();
    const second = await harness.call('DELETE', `/admin/v1/api-keys/${id}`, { token: ADMIN_TOKEN });
    expect(second.status).toBe(404);
  });

  it('publishes each change as a fact on the gateway topic', async () => {
    const workspace = await createWorkspace('Facts', 'pro');
    const facts = await readTopic(harness.topics.gateway, (values) =>
      values.some((value) => value.includes(`"workspace_id":${String(workspace.id)}`)),
    );
    const created = facts
      .map((value) => JSON.parse(value) as { type: string; data: { workspace_id: number } })
      .find((fact) => fact.data.workspace_id === workspace.id);
    expect(created).toMatchObject({
      type: 'workspace.created',
      data: { workspace_id: workspace.id, name: 'Facts', plan: 'pro' },
    });
  });
});

describe('the published reference', () => {
  it('serves an OpenAPI document generated from the routes, with body schemas from the validation rules', async () => {
    const answer = await harness.call('GET', '/openapi.json');
    expect(answer.status).toBe(200);
    const document = answer.body as {
      openapi: string;
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: { content: Record<string, { schema: { $ref: string } }> };
            responses: Record<string, unknown>;
          }
        >
      >;
      components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
    };
    expect(document.openapi).toMatch(/^3\./);
    const create = document.paths['/admin/v1/workspaces']!.post!;
    const ref = create.requestBody!.content['application/json']!.schema.$ref;
    const schema = document.components.schemas[ref.split('/').pop()!]!;
    expect(Object.keys(schema.properties ?? {}).sort()).toEqual(['name', 'plan']);
    expect(schema.required?.sort()).toEqual(['name', 'plan']);
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '401', '422']));
    expect(create.responses['201']).toMatchObject({
      content: {
        'application/json': {
          schema: { properties: { data: { $ref: '#/components/schemas/WorkspaceCreated' } } },
        },
      },
    });
    expect(document.components.schemas.ApiKeyCreated!.required).toEqual(
      expect.arrayContaining(['id', 'name', 'permissions', 'key']),
    );
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/admin/v1/workspaces/{id}',
        '/admin/v1/workspaces/{id}/api-keys',
        '/admin/v1/api-keys/{id}',
      ]),
    );
  });

  it('states the rules every body meets, and the id rules of body fields, in the document', async () => {
    const answer = await harness.call('GET', '/openapi.json');
    const document = answer.body as {
      info: { description: string };
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    for (const rule of [
      '1 MiB',
      '32 levels',
      'U+0000',
      'lone surrogates',
      '2^53 − 1',
      '64 KiB',
      '1,000',
      '1 hour',
    ]) {
      expect(document.info.description).toContain(rule);
    }
    // The errors a body-taking operation without a path id can answer (404 and 405 belong to no operation).
    expect(Object.keys(document.paths['/api/v1/events']!.post!.responses)).toEqual(
      expect.arrayContaining(['200', '202', '400', '401', '403', '413', '415', '422', '429', '503']),
    );
    const id = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };
    expect(document.components.schemas.TagAssignmentBody!.properties).toMatchObject({
      contact_id: id,
      tag_ids: { type: 'array', items: id },
    });
  });

  it('serves a browsable reference at /docs, every asset from the gateway itself', async () => {
    const answer = await harness.call('GET', '/docs');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    const page = String(answer.body);
    expect(page).toMatch(/<html/i);
    // Scalar renders the document the gateway serves beside the page.
    expect(page).toContain('data-url="openapi.json"');
    const configuration = JSON.parse(
      /data-configuration="([^"]*)"/
        .exec(page)![1]!
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&'),
    ) as Record<string, unknown>;
    expect(configuration).toMatchObject({ withDefaultFonts: false, telemetry: false });
    // Nothing from elsewhere: no absolute URL to load, and the bundle is the gateway's, named after its content.
    expect(page).not.toMatch(/(?:src|href|data-url)="(?:[a-z]+:)?\/\//i);
    const script = /<script src="(docs\/scalar-[0-9a-f]{16}\.js)"><\/script>/.exec(page)?.[1];
    expect(script).toBeDefined();
    const bundle = await harness.call('GET', `/${script}`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(bundle.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(String(bundle.body)).toContain('@scalar/api-reference');

    const yaml = await harness.call('GET', '/openapi.yaml');
    expect([yaml.status, String(yaml.body).split('\n')[0]]).toEqual([200, 'openapi: 3.1.0']);
  });
});

describe('errors at the edge', () => {
  it('answers an unknown route with 404 naming it', async () => {
    // Outside /api/v1, where a key is asked for first (public-door.int-spec.ts).
    const answer = await harness.call('GET', '/admin/v1/nothing-here', { token: ADMIN_TOKEN });
    expect(answer.status).toBe(404);
    expect((answer.body as Errors).errors[0]).toMatchObject({
      status: '404',
      title: 'Not Found',
      detail: expect.stringContaining('/admin/v1/nothing-here'),
    });
  });

  it('answers a known route with a wrong method with 405 and Allow', async () => {
    const answer = await harness.call('PUT', '/admin/v1/workspaces', { token: ADMIN_TOKEN, body: {} });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toContain('POST');
  });

  it('answers malformed JSON with 400 and a body over 1 MiB with 413, in the JSON:API form', async () => {
    const malformed = await harness.call('POST', '/admin/v1/workspaces', {
      token: ADMIN_TOKEN,
      body: '{"name": ',
    });
    expect(malformed.status).toBe(400);
    expect((malformed.body as Errors).errors[0]!.title).toBe('Bad Request');
    const huge = await harness.call('POST', '/admin/v1/workspaces', {
      token: ADMIN_TOKEN,
      body: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10), plan: 'pro' }),
    });
    expect(huge.status).toBe(413);
    expect((huge.body as Errors).errors[0]!.title).toBe('Payload Too Large');
  });

  it('answers a body that is not JSON with 415', async () => {
    const answer = await harness.call('POST', '/admin/v1/workspaces', {
      token: ADMIN_TOKEN,
      body: 'name=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(answer.status).toBe(415);
  });
});
