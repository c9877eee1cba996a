import {
  CONSENT_CHANNELS,
  CONTACT_REQUEST_TYPES,
  GATEWAY_REQUEST_TYPES,
  MAX_BATCH_CONTACTS,
} from '@cms/contracts';
import { eventually } from '@cms/testing';

import { ContactsHarness, ISO_MS, type Outcome } from './contacts.harness';

let harness: ContactsHarness;
beforeAll(async () => {
  harness = await ContactsHarness.start();
});

afterAll(async () => {
  await harness?.stop();
});

const LIMIT = 1000;

function update(workspaceId: number, contactId: number, body: object): Promise<Outcome> {
  return harness.request(CONTACT_REQUEST_TYPES.update, workspaceId, { contact_id: contactId, ...body });
}

function batch(workspaceId: number, contacts: object[], limit = LIMIT): Promise<Outcome> {
  return harness.request(CONTACT_REQUEST_TYPES.batchUpsert, workspaceId, {
    contact_limit: limit,
    contacts: contacts.map((contact) => ({ contact_id: harness.id(), ...contact })),
  });
}

function linkChannel(workspaceId: number, contactId: number, channel: string, externalId: string) {
  return harness.request(CONTACT_REQUEST_TYPES.channelLink, workspaceId, {
    contact_id: contactId,
    channel,
    external_id: externalId,
  });
}

async function listContacts(workspaceId: number, query = ''): Promise<Array<Record<string, unknown>>> {
  const reply = await harness.get(`/internal/v1/contacts${query}`, workspaceId);
  expect(reply.status).toBe(200);
  return reply.body.data as Array<Record<string, unknown>>;
}

const NO_CONSENT = Object.fromEntries(CONSENT_CHANNELS.map((channel) => [channel, null]));

describe('POST /api/v1/contacts/upsert', () => {
  it('creates a contact with 201 and the full contact shape, and publishes contact.created', async () => {
    const ws = harness.workspace();
    const outcome = await harness.upsert(ws, {
      name: 'Ada Lovelace',
      phone: '+44 7700 900123',
      email: 'ada@example.com',
      external_id: 'crm-1',
      source: 'crm',
      data: { plan: 'gold' },
      marketing_consent: { sms: true, email: false },
    });
    expect(outcome.status).toBe(201);
    expect(outcome.resource).toEqual({
      id: expect.any(Number),
      name: 'Ada Lovelace',
      phone: '+447700900123',
      email: 'ada@example.com',
      external_id: 'crm-1',
      source: 'crm',
      data: { plan: 'gold' },
      marketing_consent: { ...NO_CONSENT, sms: true, email: false },
      tags: [],
      channels: { telegram: null, messenger: null, instagram: null, browser_push: null },
      created_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });
    expect(outcome.resource!.created_at).toBe(outcome.envelope.time);

    const facts = await harness.factsOf(outcome, 2);
    expect(facts.map((fact) => fact.type)).toEqual(['contact.created', 'consent.granted']);
    expect(facts[0]!.data).toMatchObject({ contact_id: outcome.resource!.id, phone: '+447700900123' });
    expect(facts[0]!.workspaceid).toBe(String(ws));

    const read = await harness.get(`/internal/v1/contacts/${String(outcome.resource!.id)}`, ws);
    expect(read).toEqual({ status: 200, body: { data: outcome.resource } });
  });

  it('deduplicates by phone: differently written numbers of one E.164 update the same contact with 200', async () => {
    const ws = harness.workspace();
    const first = await harness.upsert(ws, { name: 'First', phone: '+1 (415) 555-0123' });
    expect(first.status).toBe(201);
    for (const [phone, name] of [
      ['0014155550123', 'Second'],
      ['14155550123', 'Third'],
      ['+1 415.555.0123', 'Fourth'],
    ] as const) {
      const again = await harness.upsert(ws, { name, phone });
      expect(again.status).toBe(200);
      expect(again.resource).toMatchObject({ id: first.resource!.id, name, phone: '+14155550123' });
    }
    const all = await listContacts(ws);
    expect(all).toHaveLength(1);
    expect(await listContacts(ws, `?filter[phone]=${encodeURIComponent('+1 415 555 0123')}`)).toHaveLength(1);

    // The same number in another workspace is another contact.
    const elsewhere = await harness.upsert(harness.workspace(), { name: 'Other', phone: '+14155550123' });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.resource!.id).not.toBe(first.resource!.id);
  });

  it('answers 422 pointing at the phone when it cannot be read as a number, and creates nothing', async () => {
    const ws = harness.workspace();
    const outcome = await harness.upsert(ws, { name: 'Bad', phone: 'not a phone' });
    expect(outcome.status).toBe(422);
    expect(outcome.errors).toEqual([
      {
        status: '422',
        title: 'Validation Error',
        detail: expect.stringContaining('phone'),
        source: { pointer: '/data/attributes/phone' },
      },
    ]);
    expect(await listContacts(ws)).toEqual([]);
    expect(await harness.settledFactsOf(outcome)).toEqual([]);
  });
});

describe('POST /api/v1/contacts/batch', () => {
  it('applies the valid elements and answers 200 with one result per element', async () => {
    const ws = harness.workspace();
    const outcome = await batch(ws, [
      { name: 'One', phone: '+14155550101' },
      { name: 'Bad email', email: 'nope' },
      { name: 'Bad phone', phone: 'abc' },
      { name: 'One again', phone: '001 415 555 0101' },
      { name: 'Unknown field', shoe_size: 44 },
      { name: 'Two', email: 'two@example.com' },
    ]);
    expect(outcome.status).toBe(200);
    const { results, summary } = outcome.resource as {
      results: Array<{
        index: number;
        status: number;
        contact?: { id: number; name: string };
        errors?: unknown[];
      }>;
      summary: Record<string, number>;
    };
    expect(results.map((result) => [result.index, result.status])).toEqual([
      [0, 201],
      [1, 422],
      [2, 422],
      [3, 200],
      [4, 422],
      [5, 201],
    ]);
    expect(summary).toEqual({ created: 2, updated: 1, failed: 3 });
    expect(results[1]!.errors).toEqual([
      expect.objectContaining({ status: '422', source: { pointer: '/data/attributes/contacts/1/email' } }),
    ]);
    expect(results[2]!.errors).toEqual([
      expect.objectContaining({ source: { pointer: '/data/attributes/contacts/2/phone' } }),
    ]);
    expect(results[4]!.errors).toEqual([
      expect.objectContaining({ source: { pointer: '/data/attributes/contacts/4/shoe_size' } }),
    ]);
    expect(results[3]!.contact).toMatchObject({ id: results[0]!.contact!.id, name: 'One again' });
    const names = (await listContacts(ws)).map((contact) => contact.name);
    expect(names).toEqual(['One again', 'Two']);
    const facts = await harness.factsOf(outcome, 3);
    expect(facts.map((fact) => fact.type)).toEqual(['contact.created', 'contact.updated', 'contact.created']);
    expect(new Set(facts.map((fact) => fact.id)).size).toBe(3);
  });

  it(`fails the elements past the plan limit and still applies updates (at most ${MAX_BATCH_CONTACTS} per batch)`, async () => {
    const ws = harness.workspace();
    await harness.upsert(ws, { name: 'Existing', phone: '+14155550201' });
    const outcome = await batch(
      ws,
      [
        { name: 'New 1', phone: '+14155550202' },
        { name: 'New 2', phone: '+14155550203' },
        { name: 'Existing updated', phone: '+14155550201' },
      ],
      2,
    );
    const { results } = outcome.resource as { results: Array<{ status: number; errors?: unknown[] }> };
    expect(results.map((result) => result.status)).toEqual([201, 422, 200]);
    expect(results[1]!.errors).toEqual([
      expect.objectContaining({ status: '422', source: { pointer: '/data/attributes/contact' } }),
    ]);
    expect((await listContacts(ws)).map((contact) => contact.name)).toEqual(['Existing updated', 'New 1']);
  });
});

describe('PUT /api/v1/contacts/{id}', () => {
  it('merges data, leaves omitted consent channels unchanged and answers the whole contact', async () => {
    const ws = harness.workspace();
    const created = await harness.upsert(ws, {
      name: 'Grace',
      phone: '+14155550301',
      data: { plan: 'gold', city: 'Oslo' },
      marketing_consent: { sms: true, whatsapp: false },
    });
    const id = created.resource!.id as number;
    const outcome = await update(ws, id, {
      email: 'grace@example.com',
      data: { city: 'Bergen', team: 'blue' },
      marketing_consent: { email: true },
    });
    expect(outcome.status).toBe(200);
    expect(outcome.resource).toMatchObject({
      id,
      name: 'Grace',
      phone: '+14155550301',
      email: 'grace@example.com',
      data: { plan: 'gold', city: 'Bergen', team: 'blue' },
      marketing_consent: { ...NO_CONSENT, sms: true, whatsapp: false, email: true },
    });
    const facts = await harness.factsOf(outcome, 2);
    expect(facts.map((fact) => fact.type)).toEqual(['contact.updated', 'consent.granted']);
    expect(facts[0]!.data.changed_fields).toEqual([
      'email',
      'data.city',
      'data.team',
      'marketing_consent.email',
    ]);
  });

  it('answers 404 for an unknown contact and for a contact of another workspace', async () => {
    const ws = harness.workspace();
    const created = await harness.upsert(ws, { name: 'Mine' });
    for (const [workspaceId, id] of [
      [ws, 99_999_999],
      [harness.workspace(), created.resource!.id as number],
    ] as const) {
      const outcome = await update(workspaceId, id, { name: 'Stolen' });
      expect(outcome.status).toBe(404);
      expect(outcome.errors).toEqual([
        { status: '404', title: 'Not Found', detail: `Contact ${id} was not found.` },
      ]);
    }
    expect((await listContacts(ws))[0]!.name).toBe('Mine');
  });

  it('answers 422 at /data/attributes/data when the merged data would pass 64 KiB, and changes nothing', async () => {
    const ws = harness.workspace();
    const half = 'x'.repeat(40 * 1024);
    const id = (await harness.upsert(ws, { name: 'Big', external_id: 'big', data: { a: half } })).resource!
      .id as number;
    const refused = await update(ws, id, { name: 'Changed', data: { b: half } });
    expect(refused.status).toBe(422);
    expect(refused.errors).toEqual([
      expect.objectContaining({ status: '422', source: { pointer: '/data/attributes/data' } }),
    ]);
    expect(await harness.settledFactsOf(refused)).toEqual([]);
    const [stored] = await listContacts(ws);
    expect(stored).toMatchObject({ name: 'Big', data: { a: half } });
    // In a batch the element fails alone, at its own pointer.
    const results = (
      await batch(ws, [{ name: 'Big', external_id: 'big', data: { b: half } }, { name: 'Other' }])
    ).resource!.results as Array<{ status: number; errors?: Array<{ source: unknown }> }>;
    expect(results.map((result) => result.status)).toEqual([422, 201]);
    expect(results[0]!.errors).toEqual([
      expect.objectContaining({ source: { pointer: '/data/attributes/contacts/0/data' } }),
    ]);
  });

  it('refuses the external id or email another contact holds with 422 at each, and changes nothing', async () => {
    const ws = harness.workspace();
    await harness.upsert(ws, { name: 'Holder', external_id: 'crm-1', email: 'holder@example.com' });
    const other = (await harness.upsert(ws, { name: 'Other' })).resource!.id as number;
    const outcome = await update(ws, other, { external_id: 'crm-1', email: 'HOLDER@example.com' });
    expect(outcome.status).toBe(422);
    expect(outcome.errors!.map((error) => error.source)).toEqual([
      { pointer: '/data/attributes/external_id' },
      { pointer: '/data/attributes/email' },
    ]);
    expect(await harness.settledFactsOf(outcome)).toEqual([]);
    expect((await listContacts(ws)).map((contact) => [contact.external_id, contact.email])).toEqual([
      ['crm-1', 'holder@example.com'],
      [null, null],
    ]);
  });

  it('refuses a phone that is not a number, or that another contact of the workspace holds, with 422', async () => {
    const ws = harness.workspace();
    await harness.upsert(ws, { name: 'Holder', phone: '+14155550401' });
    const other = await harness.upsert(ws, { name: 'Other', phone: '+14155550402' });
    for (const phone of ['+1 415 555 0401', 'call me']) {
      const outcome = await update(ws, other.resource!.id as number, { phone, name: 'Changed' });
      expect(outcome.status).toBe(422);
      expect(outcome.errors![0]!.source).toEqual({ pointer: '/data/attributes/phone' });
    }
    expect((await listContacts(ws)).map((contact) => contact.name)).toEqual(['Holder', 'Other']);
  });
});

describe('identity (extensions §2)', () => {
  it('moves the identifiers an upsert gives its matched contact from their holders, with a fact for each contact', async () => {
    const ws = harness.workspace();
    const holder = (
      await harness.upsert(ws, { name: 'Holder', external_id: 'crm-9', email: 'nine@example.com' })
    ).resource!.id as number;
    const taker = (await harness.upsert(ws, { name: 'Taker', phone: '+14155550901' })).resource!.id as number;
    const later = '2030-01-01T00:00:00.000Z';

    const moved = await harness.request(
      CONTACT_REQUEST_TYPES.upsert,
      ws,
      {
        contact_id: harness.id(),
        contact_limit: LIMIT,
        name: 'Taker',
        phone: '+1 415 555 0901',
        external_id: 'crm-9',
        email: 'Nine@Example.com',
      },
      { time: later },
    );

    expect(moved.status).toBe(200);
    expect(moved.resource).toMatchObject({ id: taker, external_id: 'crm-9', email: 'Nine@Example.com' });
    const facts = await harness.factsOf(moved, 2);
    expect(facts.map((fact) => [fact.type, fact.data.contact_id, fact.data.changed_fields])).toEqual([
      ['contact.updated', holder, ['email', 'external_id']],
      ['contact.updated', taker, ['email', 'external_id']],
    ]);
    const holders = await listContacts(ws, '?filter[external_id]=crm-9');
    expect(holders).toEqual([expect.objectContaining({ id: taker, updated_at: later })]);
    const lost = await harness.get(`/internal/v1/contacts/${holder}`, ws);
    expect(lost.body.data).toMatchObject({ external_id: null, email: null, updated_at: later });
  });
});

describe('PUT /api/v1/contacts/{id}/channels/{channel}', () => {
  it('links the channel id and moves it from the contact that held it', async () => {
    const ws = harness.workspace();
    const a = (await harness.upsert(ws, { name: 'A' })).resource!.id as number;
    const b = (await harness.upsert(ws, { name: 'B' })).resource!.id as number;
    const first = await linkChannel(ws, a, 'telegram', 'chat-42');
    expect(first.status).toBe(200);
    expect(first.resource!.channels).toMatchObject({ telegram: 'chat-42' });

    const moved = await linkChannel(ws, b, 'telegram', 'chat-42');
    expect(moved.status).toBe(200);
    expect(moved.resource!.channels).toMatchObject({ telegram: 'chat-42' });
    const facts = await harness.factsOf(moved, 2);
    expect(facts.map((fact) => [fact.type, fact.data.contact_id])).toEqual([
      ['contact.channel-unlinked', a],
      ['contact.channel-linked', b],
    ]);
    const readA = await harness.get(`/internal/v1/contacts/${a}`, ws);
    expect((readA.body.data as { channels: object }).channels).toMatchObject({ telegram: null });

    // The same id on another channel, or in another workspace, is another id.
    await linkChannel(ws, a, 'messenger', 'chat-42');
    const otherWs = harness.workspace();
    const c = (await harness.upsert(otherWs, { name: 'C' })).resource!.id as number;
    expect((await linkChannel(otherWs, c, 'telegram', 'chat-42')).status).toBe(200);
    const readB = await harness.get(`/internal/v1/contacts/${b}`, ws);
    expect((readB.body.data as { channels: object }).channels).toMatchObject({ telegram: 'chat-42' });
    expect((await linkChannel(otherWs, b, 'telegram', 'x')).status).toBe(404);
  });
});

describe('the plan limit', () => {
  it('answers 422 at /data/attributes/contact for a write that would store one contact too many, and changes nothing', async () => {
    const ws = harness.workspace();
    await harness.upsert(ws, { name: 'One', phone: '+14155550501' }, 2);
    await harness.upsert(ws, { name: 'Two', phone: '+14155550502' }, 2);
    const refused = await harness.upsert(ws, { name: 'Three', phone: '+14155550503' }, 2);
    expect(refused.status).toBe(422);
    expect(refused.errors).toEqual([
      {
        status: '422',
        title: 'Validation Error',
        detail: expect.stringContaining('2'),
        source: { pointer: '/data/attributes/contact' },
      },
    ]);
    expect(await harness.settledFactsOf(refused)).toEqual([]);
    // Updating a stored contact creates nothing, so the limit does not apply.
    expect((await harness.upsert(ws, { name: 'One again', phone: '+14155550501' }, 2)).status).toBe(200);
    // A larger plan lets the workspace grow again.
    expect((await harness.upsert(ws, { name: 'Three', phone: '+14155550503' }, 3)).status).toBe(201);
    expect((await listContacts(ws)).map((contact) => contact.name)).toEqual(['One again', 'Two', 'Three']);
  });

  it('judges a write recorded right after a plan change by the new plan’s limit, not the one it carries', async () => {
    const ws = harness.workspace();
    const plan = (name: string, limit: number) =>
      harness.envelope(GATEWAY_REQUEST_TYPES.workspaceUpdate, ws, {
        workspace_id: ws,
        plan: name,
        contact_limit: limit,
      });
    const first = harness.envelope(CONTACT_REQUEST_TYPES.upsert, ws, {
      contact_id: harness.id(),
      contact_limit: 25_000,
      name: 'One',
      phone: '+14155550511',
    });
    // The write after the change still carries the old plan's limit, as a gateway's cached key would.
    const second = harness.envelope(CONTACT_REQUEST_TYPES.upsert, ws, {
      contact_id: harness.id(),
      contact_limit: 25_000,
      name: 'Two',
      phone: '+14155550512',
    });
    await harness.produce(plan('pro', 25_000), first, plan('starter', 1), second);
    expect((await harness.outcomeOf(first)).status).toBe(201);
    const refused = await harness.outcomeOf(second);
    expect(refused.status).toBe(422);
    expect(refused.errors![0]).toMatchObject({
      detail: expect.stringContaining('limit of 1 '),
      source: { pointer: '/data/attributes/contact' },
    });

    // A later plan change lets the workspace grow again, whatever limit the request carries.
    await harness.produce(plan('pro', 5));
    expect((await harness.upsert(ws, { name: 'Two', phone: '+14155550512' }, 0)).status).toBe(201);
    expect((await listContacts(ws)).map((contact) => contact.name)).toEqual(['One', 'Two']);
  });
});

describe('the probes', () => {
  it('answers /health, /ready once the consumer is assigned, and /metrics', async () => {
    const base = harness.service.url;
    expect((await fetch(`${base}/health`)).status).toBe(200);
    const ready = await fetch(`${base}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ready',
      checks: { postgres: 'ok', 'kafka-producer': 'ok', 'requests-consumer': 'ok' },
    });
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('service="contacts"');
  });

  it('reports in /metrics the requests it applied, its lag on each partition read, and what it published', async () => {
    const ws = harness.workspace();
    await harness.upsert(ws, { name: 'Counted' });
    const requests = harness.topics.requests;
    const series = (text: string, metric: string, labels: string[]): number[] =>
      text
        .split('\n')
        .filter((line) => line.startsWith(`${metric}{`) && labels.every((label) => line.includes(label)))
        .map((line) => Number(line.slice(line.lastIndexOf(' ') + 1)));

    let text = '';
    await eventually('every partition read is caught up', async () => {
      text = await (await fetch(`${harness.service.url}/metrics`)).text();
      const lags = series(text, 'cms_consumer_lag', ['consumer="contacts"', `topic="${requests}"`]);
      return lags.length > 0 && lags.every((lag) => lag === 0);
    });

    const applied = series(text, 'cms_records_processed_total', [
      'consumer="contacts"',
      `topic="${requests}"`,
      'result="applied"',
    ]);
    expect(applied).toHaveLength(1);
    expect(applied[0]).toBeGreaterThanOrEqual(1);
    expect(series(text, 'cms_records_processed_total', ['result="dead_lettered"'])).toHaveLength(1);
    expect(text).toMatch(/^cms_outbox_published_total\{service="contacts"\} [1-9]\d*$/m);
    expect(text).toMatch(/^cms_outbox_backlog\{service="contacts"\} \d+$/m);
  });
});

describe('the internal read API', () => {
  it('needs the x-workspace-id header', async () => {
    const reply = await harness.get('/internal/v1/contacts');
    expect(reply.status).toBe(400);
    expect(reply.body.errors![0]).toMatchObject({ status: '400', title: 'Bad Request' });
  });

  it('answers 404 for an id that is not a number, unknown, or of another workspace', async () => {
    const ws = harness.workspace();
    const id = (await harness.upsert(ws, { name: 'Mine' })).resource!.id as number;
    for (const [workspaceId, path] of [
      [ws, 'abc'],
      [ws, '1.5'],
      [ws, '99999999'],
      [harness.workspace(), String(id)],
    ] as const) {
      const reply = await harness.get(`/internal/v1/contacts/${path}`, workspaceId);
      expect(reply.status).toBe(404);
      expect(reply.body.errors![0]).toMatchObject({ status: '404', title: 'Not Found' });
    }
  });

  it("answers which of a list of ids name no contact of the workspace, another workspace's included", async () => {
    const ws = harness.workspace();
    const other = harness.workspace();
    const id = (await harness.upsert(ws, { name: 'Held', phone: '+14155550690' })).resource!.id as number;
    const theirs = (await harness.upsert(other, { name: 'Theirs', phone: '+14155550691' })).resource!
      .id as number;

    const answer = await harness.post(
      '/internal/v1/contacts/unknown',
      { contact_ids: [id, theirs, 99999999, id] },
      ws,
    );
    expect([answer.status, answer.body]).toEqual([200, { data: { unknown: [theirs, 99999999] } }]);
    const refused = await harness.post('/internal/v1/contacts/unknown', { contact_ids: ['x'] }, ws);
    expect(refused.status).toBe(422);
  });

  it('pages and filters by phone, email, external_id, tag and search', async () => {
    const ws = harness.workspace();
    await harness.upsert(ws, { name: 'Alice Smith', phone: '+14155550601', email: 'Alice@Example.com' });
    await harness.upsert(ws, { name: 'Bob Jones', phone: '+14155550602', external_id: 'crm-bob' });
    await harness.upsert(ws, { name: 'Carol Smith', email: 'carol@example.com' });

    const page = await harness.get('/internal/v1/contacts?per_page=2&page=2', ws);
    expect(page.status).toBe(200);
    expect(page.body.meta).toEqual({ current_page: 2, per_page: 2, total: 3, last_page: 2 });
    expect((page.body.data as Array<{ name: string }>).map((contact) => contact.name)).toEqual([
      'Carol Smith',
    ]);
    expect((await harness.get('/internal/v1/contacts?per_page=101', ws)).status).toBe(422);

    const names = async (query: string) => (await listContacts(ws, query)).map((contact) => contact.name);
    expect(await names('?filter[email]=alice@example.COM')).toEqual(['Alice Smith']);
    expect(await names('?filter[phone]=%2B1%20415%20555%200602')).toEqual(['Bob Jones']);
    expect(await names('?filter[external_id]=crm-bob')).toEqual(['Bob Jones']);
    expect(await names('?filter[search]=smith')).toEqual(['Alice Smith', 'Carol Smith']);
    expect(await names('?filter[search]=0602')).toEqual(['Bob Jones']);
    expect(await names('?filter[tag]=1')).toEqual([]);
  });
});

describe('a request record that cannot be applied', () => {
  it('is answered with 500 and an error id, and the requests after it are decided as usual', async () => {
    const ws = harness.workspace();
    const broken = harness.envelope(CONTACT_REQUEST_TYPES.upsert, ws, {
      contact_id: harness.id(),
      name: 'No limit',
    });
    const next = harness.envelope(CONTACT_REQUEST_TYPES.upsert, ws, {
      contact_id: harness.id(),
      contact_limit: LIMIT,
      name: 'Fine',
    });
    await harness.produce(broken, next);
    const answer = await harness.outcomeOf(broken);
    expect(answer.status).toBe(500);
    expect(answer.errors).toEqual([
      {
        status: '500',
        title: 'Internal Server Error',
        detail: 'The request could not be applied.',
        id: expect.any(String),
      },
    ]);
    expect((await harness.outcomeOf(next)).status).toBe(201);
    expect((await listContacts(ws)).map((contact) => contact.name)).toEqual(['Fine']);
  });
});
