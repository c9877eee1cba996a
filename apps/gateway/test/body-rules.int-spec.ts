import { createHmac, randomUUID } from 'node:crypto';

import { ADMIN_TOKEN, readTopic, startHarness, type Answer, type Harness } from './gateway.harness';

/**
 * extensions §1's rules for every body, as the gateway's clients meet them on each of its doors: the
 * public API, the operator API and the inbound webhook. Each refusal is JSON:API, never a 5xx, and
 * nothing refused reaches the log.
 */

let harness: Harness;
let key: string;
let workspaceId: number;
let webhook: { token: string; secret: string };

type Data = { data: Record<string, unknown> };
type Errors = {
  errors: Array<{ status: string; title: string; detail: string; source?: { pointer: string } }>;
};

beforeAll(async () => {
  harness = await startHarness();
  const workspace = await harness.call('POST', '/admin/v1/workspaces', {
    token: ADMIN_TOKEN,
    body: { name: 'Acme', plan: 'pro' },
  });
  workspaceId = (workspace.body as Data).data.id as number;
  const created = await harness.call('POST', `/admin/v1/workspaces/${workspaceId}/api-keys`, {
    token: ADMIN_TOKEN,
    body: { name: 'k', permissions: ['read', 'create', 'update', 'delete'] },
  });
  key = (created.body as Data).data.key as string;
  const integration = await harness.call('POST', '/api/v1/integrations', {
    token: key,
    body: { type: 'typeform', name: 'Signup form' },
  });
  const data = (integration.body as Data).data;
  const url = String(data.webhook_url);
  webhook = { token: url.slice(url.lastIndexOf('/') + 1), secret: String(data.signing_secret) };
});

afterAll(async () => {
  await harness?.stop();
});

/** Sends these exact bytes: the harness's `call` would send a string, which cannot hold invalid UTF-8. */
async function send(
  method: string,
  path: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${harness.gateway.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text) as unknown };
}

function api(method: string, path: string, body: string | Buffer, headers: Record<string, string> = {}) {
  return send(method, path, body, { authorization: `Bearer ${key}`, ...headers });
}

function admin(method: string, path: string, body: string | Buffer) {
  return send(method, path, body, { authorization: `Bearer ${ADMIN_TOKEN}` });
}

function inbound(body: string | Buffer, headers: Record<string, string> = {}) {
  const signature = createHmac('sha256', webhook.secret).update(body).digest('hex');
  return send('POST', `/webhook/integration/${webhook.token}`, body, {
    'x-webhook-signature': signature,
    ...headers,
  });
}

/** The status, and each error's pointer (or its detail when it has none), as a client reads them. */
function outcome(answer: Answer): { status: number; contentType: string | null; at: string[] } {
  const errors = (answer.body as Partial<Errors>).errors ?? [];
  return {
    status: answer.status,
    contentType: answer.headers.get('content-type'),
    at: errors.map((error) => error.source?.pointer ?? error.detail),
  };
}

function refused(status: number, ...at: string[]): ReturnType<typeof outcome> {
  return { status, contentType: 'application/json', at };
}

const EVENT = { name: 'order.placed', contact: { phone: '+14155550100' } };

describe('the public API', () => {
  it('answers a body that is not UTF-8 400 instead of recording a repaired one', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"name":"order.placed","contact":{"phone":"+14155550100","name":"Zo'),
      Buffer.from([0xeb]),
      Buffer.from('"}}'),
    ]);

    expect(outcome(await api('POST', '/api/v1/events', bytes))).toEqual(
      refused(400, 'The request body is not valid UTF-8.'),
    );
  });

  it('answers U+0000 and lone surrogates in custom data 422 at each, keys included', async () => {
    const body = JSON.stringify({ ...EVENT, data: { note: 'a\u0000b', list: ['ok', 'x\ud800'] } }).replace(
      '"ok"',
      '"ok","\\udc00"',
    );
    const inKey = '{"name":"order.placed","contact":{"phone":"+14155550100","data":{"a/\\u0000":1}}}';

    expect(outcome(await api('POST', '/api/v1/events', body))).toEqual(
      refused(
        422,
        '/data/attributes/data/note',
        '/data/attributes/data/list/1',
        '/data/attributes/data/list/2',
      ),
    );
    expect(outcome(await api('POST', '/api/v1/events', inKey))).toEqual(
      refused(422, '/data/attributes/contact/data/a~1\u0000'),
    );
  });

  it('answers data nested 10,000 levels deep 422, pointing at the 33rd level', async () => {
    const deep = '{"name":"order.placed","data":' + '{"a":'.repeat(9_999) + '{}' + '}'.repeat(9_999) + '}';

    expect(outcome(await api('POST', '/api/v1/events', deep))).toEqual(
      refused(422, '/data/attributes/data' + '/a'.repeat(31)),
    );
  });

  it('answers a body that is not an object 422 at /data, null on PUT and PATCH included', async () => {
    const answers = [
      await api('POST', '/api/v1/events', '[]'),
      await api('POST', '/api/v1/events', '"order.placed"'),
      await api('PUT', '/api/v1/contacts/1', 'null'),
      await api('PATCH', '/api/v1/tags/1', 'null'),
      await api('PUT', '/api/v1/contacts/1/channels/telegram', '42'),
    ];

    expect(answers.map(outcome)).toEqual(answers.map(() => refused(422, '/data')));
  });

  it('answers a form-encoded body 415, and nothing of it reaches the log', async () => {
    const name = `vip-${randomUUID()}`;

    const form = await api('POST', '/api/v1/tags', `name=${name}`, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    const plain = await api('POST', '/api/v1/tags', `{"name":"${name}"}`, { 'content-type': 'text/plain' });

    expect(outcome(form)).toEqual(
      refused(
        415,
        'The Content-Type application/x-www-form-urlencoded is not supported; send application/json.',
      ),
    );
    expect(outcome(plain).status).toBe(415);
    // A write sent after the refusals: once it is on the requests topic, a tag request would be too.
    const marker = `marker-${randomUUID()}`;
    await harness.call('POST', '/admin/v1/workspaces', {
      token: ADMIN_TOKEN,
      body: { name: marker, plan: 'pro' },
    });
    const requests = await readTopic(harness.topics.requests, (values) =>
      values.some((value) => value.includes(marker)),
    );
    expect(requests.filter((value) => value.includes(name))).toEqual([]);
  });

  it('takes application/json with a UTF-8 charset, and judges the body by the route’s own rules', async () => {
    const answer = await api('POST', '/api/v1/tags', '{"name":""}', {
      'content-type': 'application/json; charset=utf-8',
    });

    expect(outcome(answer)).toEqual(refused(422, '/data/attributes/name'));
  });
  it('takes an empty body as no body: a route that needs one names what is missing', async () => {
    const answer = await api('POST', '/api/v1/tags', '');

    expect(new Set(outcome(answer).at)).toEqual(new Set(['/data/attributes/name']));
    expect(answer.status).toBe(422);
  });
});

describe('the operator API', () => {
  it('applies the same rules', async () => {
    const answers = [
      await admin('POST', '/admin/v1/workspaces', '{"name":"Ac\\u0000me","plan":"pro"}'),
      await admin('PATCH', `/admin/v1/workspaces/${workspaceId}`, 'null'),
      await admin('POST', '/admin/v1/workspaces', Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])),
      await admin(
        'POST',
        '/admin/v1/workspaces',
        '{"name":"Acme","plan":"pro","x":' + '['.repeat(40) + ']'.repeat(40) + '}',
      ),
    ];

    expect(answers.map(outcome)).toEqual([
      refused(422, '/data/attributes/name'),
      refused(422, '/data'),
      refused(400, 'The request body is not valid UTF-8.'),
      refused(422, '/data/attributes/x' + '/0'.repeat(31)),
    ]);
  });
});

describe('the inbound webhook, after a valid signature', () => {
  it('answers U+0000 422 with a pointer into the payload', async () => {
    const answer = await inbound(
      '{"event":"lead.created","phone":"+14155550100","data":{"note":"a\\u0000"}}',
    );

    expect(outcome(answer)).toEqual(refused(422, '/data/attributes/data/note'));
  });

  it('answers a lone surrogate in a member name 422 at that member', async () => {
    const answer = await inbound('{"phone":"+14155550100","contact":{"\\ud800":"x"}}');

    expect(outcome(answer)).toEqual(refused(422, '/data/attributes/contact/\ud800'));
  });

  it('answers bytes that are not UTF-8 400, and a payload that is not an object 422 at /data', async () => {
    const latin1 = Buffer.concat([
      Buffer.from('{"phone":"+14155550100","name":"Zo'),
      Buffer.from([0xeb, 0x22, 0x7d]),
    ]);

    expect(outcome(await inbound(latin1))).toEqual(refused(400, 'The request body is not valid UTF-8.'));
    expect(outcome(await inbound(''))).toEqual(
      refused(400, 'The request body is empty although its Content-Type is application/json.'),
    );
    expect(outcome(await inbound('null'))).toEqual(refused(422, '/data'));
    expect(outcome(await inbound('[{"phone":"+14155550100"}]'))).toEqual(refused(422, '/data'));
  });

  it('answers deep nesting 422 without a 5xx', async () => {
    const deep = '{"phone":"+14155550100","data":' + '['.repeat(10_000) + ']'.repeat(10_000) + '}';

    expect(outcome(await inbound(deep))).toEqual(refused(422, '/data/attributes/data' + '/0'.repeat(31)));
  });

  it('checks the signature before any body rule', async () => {
    const answer = await send('POST', `/webhook/integration/${webhook.token}`, '{"phone":"\\u0000"}', {
      'x-webhook-signature': 'sha256=' + '0'.repeat(64),
    });

    expect(answer.status).toBe(401);
  });

  it('answers another media type 415 before it looks at the URL', async () => {
    const answer = await send('POST', '/webhook/integration/unknown-token', 'phone=1', {
      'content-type': 'application/x-www-form-urlencoded',
    });

    expect(outcome(answer)).toEqual(
      refused(
        415,
        'The Content-Type application/x-www-form-urlencoded is not supported; send application/json.',
      ),
    );
  });
});
