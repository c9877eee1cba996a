import { createHmac } from 'node:crypto';

import fc from 'fast-check';

import { System, type Answer } from '../src';

type Errors = {
  errors: Array<{ status: string; title: string; detail: string; source?: { pointer: string } }>;
};
type Inbound = { data: { event_id: number | null; contact_id: number } };
type Contact = Record<string, unknown> & { id: number; marketing_consent: Record<string, boolean | null> };
type EventRow = Record<string, unknown> & { id: number; name: string; contact_id: number };

interface Integration {
  id: number;
  token: string;
  secret: string;
}

interface Tenant {
  workspaceId: number;
  key: string;
}

/** A small stored-contacts limit for the starter plan, to see the limit apply to the inbound webhook. */
const STARTER_CONTACTS = 3;

let system: System;

beforeAll(async () => {
  system = await System.start(['gateway', 'contacts'], {
    PLAN_STARTER_STORED_CONTACTS: String(STARTER_CONTACTS),
  });
}, 120000);

afterAll(async () => {
  await system?.stop();
});

async function integrationOf(tenant: Tenant, body: Record<string, unknown> = {}): Promise<Integration> {
  const answer = await system.call<{ data: { id: number; webhook_url: string; signing_secret: string } }>(
    'POST',
    '/api/v1/integrations',
    { key: tenant.key, body: { type: 'webhook', name: 'Inbound', ...body } },
  );
  if (answer.status !== 201)
    throw new Error(`integration not created: ${answer.status} ${JSON.stringify(answer.body)}`);
  const url = answer.body.data.webhook_url;
  // Absolute under PUBLIC_BASE_URL (its default here: the suite's gateway is not told where it is reached).
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/webhook\/integration\/[A-Za-z0-9_-]{43}$/);
  return { id: answer.body.data.id, token: url.split('/').pop()!, secret: answer.body.data.signing_secret };
}

function hmac(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** Posts `payload` to the integration's URL, signed as the specification says unless told otherwise. */
function deliver<T = Inbound>(
  integration: Integration,
  payload: unknown,
  options: { signature?: string | null; headers?: Record<string, string>; raw?: string } = {},
): Promise<Answer<T>> {
  const body = options.raw ?? JSON.stringify(payload);
  const signature = options.signature === undefined ? hmac(body, integration.secret) : options.signature;
  return system.call<T>('POST', `/webhook/integration/${integration.token}`, {
    body,
    headers: { ...(signature === null ? {} : { 'x-webhook-signature': signature }), ...options.headers },
  });
}

async function events(tenant: Tenant, query = ''): Promise<EventRow[]> {
  const answer = await system.call<{ data: EventRow[] }>('GET', `/api/v1/events${query}`, {
    key: tenant.key,
  });
  expect(answer.status).toBe(200);
  return answer.body.data;
}

async function contacts(tenant: Tenant): Promise<Contact[]> {
  const answer = await system.call<{ data: Contact[] }>('GET', '/api/v1/contacts?per_page=100', {
    key: tenant.key,
  });
  expect(answer.status).toBe(200);
  return answer.body.data;
}

async function contact(tenant: Tenant, id: number): Promise<Contact> {
  const answer = await system.call<{ data: Contact }>('GET', `/api/v1/contacts/${id}`, { key: tenant.key });
  expect(answer.status).toBe(200);
  return answer.body.data;
}

describe('the signature', () => {
  it.each([
    ['the bare hex digest', (hex: string) => hex],
    ['the digest after sha256=', (hex: string) => `sha256=${hex}`],
    ['the digest in upper case', (hex: string) => hex.toUpperCase()],
    ['an upper-case digest after sha256=', (hex: string) => `sha256=${hex.toUpperCase()}`],
  ])('accepts %s and records the event with 202', async (_case, format) => {
    const tenant = await system.tenant();
    const integration = await integrationOf(tenant);
    const body = JSON.stringify({ event: 'lead.created', phone: '+14155550100' });
    const answer = await deliver(integration, undefined, {
      raw: body,
      signature: format(hmac(body, integration.secret)),
    });
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ data: { event_id: expect.any(Number), contact_id: expect.any(Number) } });
  });

  it('records nothing for a refused payload: bad or missing signature, unknown URL, too large, invalid', async () => {
    const tenant = await system.tenant();
    const integration = await integrationOf(tenant);
    const other = await integrationOf(await system.tenant());
    const payload = { event: 'lead.created', phone: '+14155550111', name: 'Refused' };
    const body = JSON.stringify(payload);
    const digest = hmac(body, integration.secret);
    const refusals: Array<[string, Promise<Answer>, number]> = [
      ['no signature', deliver(integration, payload, { signature: null }), 401],
      ['empty signature', deliver(integration, payload, { signature: '' }), 401],
      ['too short', deliver(integration, payload, { signature: digest.slice(0, 63) }), 401],
      ['too long', deliver(integration, payload, { signature: `${digest}ab` }), 401],
      ['not hex', deliver(integration, payload, { signature: `sha256=${'g'.repeat(64)}` }), 401],
      [
        "another integration's secret",
        deliver(integration, payload, { signature: hmac(body, other.secret) }),
        401,
      ],
      [
        're-serialised body',
        deliver(integration, payload, { raw: JSON.stringify(payload, null, 1), signature: digest }),
        401,
      ],
      [
        'unknown URL',
        system.call('POST', `/webhook/integration/${'Q'.repeat(43)}`, {
          body,
          headers: { 'x-webhook-signature': digest },
        }),
        401,
      ],
      ['over 1 MiB', deliver(integration, { ...payload, data: { blob: 'x'.repeat(1024 * 1024) } }), 413],
      ['no phone, email or id', deliver(integration, { event: 'lead.created', name: 'Nobody' }), 422],
      ['bad event name', deliver(integration, { ...payload, event: 'Lead Created' }), 422],
    ];
    for (const [name, pending, status] of refusals) {
      const answer = await pending;
      expect([name, answer.status]).toEqual([name, status]);
      expect((answer.body as Errors).errors[0]!.status).toBe(String(status));
    }
    // Give a stray record every chance to land before looking.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await events(tenant)).toEqual([]);
    expect(await contacts(tenant)).toEqual([]);

    const accepted = await deliver(integration, payload);
    expect(accepted.status).toBe(202);
    expect((await events(tenant)).map((event) => event.name)).toEqual(['lead.created']);
  });
});

describe('what a payload records', () => {
  it('records an event exactly as POST /api/v1/events does, with the contact it names', async () => {
    const tenant = await system.tenant();
    const integration = await integrationOf(tenant);
    const answer = await deliver(integration, {
      event: 'invoice.due',
      contact: { name: 'Ada', phone: '+44 7700 900456', email: 'ada@example.com', data: { tier: 'pro' } },
      data: { amount: 42 },
      occurred_at: '2026-03-01T12:00:00+02:00',
    });
    expect(answer.status).toBe(202);
    const [event] = await events(tenant);
    expect(event).toMatchObject({
      id: answer.body.data.event_id,
      name: 'invoice.due',
      contact_id: answer.body.data.contact_id,
      data: { amount: 42 },
      occurred_at: '2026-03-01T10:00:00.000Z',
    });
    expect(await contact(tenant, answer.body.data.contact_id)).toMatchObject({
      name: 'Ada',
      phone: '+447700900456',
      email: 'ada@example.com',
      data: { tier: 'pro' },
    });

    // The same occurrence through the events API is matched to the same contact by phone.
    const direct = await system.call<{ data: { contact_id: number } }>('POST', '/api/v1/events', {
      key: tenant.key,
      body: { name: 'invoice.paid', contact: { phone: '+447700900456' } },
    });
    expect(direct.body.data.contact_id).toBe(answer.body.data.contact_id);
  });

  it.each([
    [
      'top-level name, phone and email',
      { name: 'Ann', phone: '+14155550120', email: 'ann@example.com' },
      { name: 'Ann', phone: '+14155550120', email: 'ann@example.com' },
    ],
    [
      'contact.name, contact.phone and contact.email',
      { contact: { name: 'Bo', phone: '+14155550121', email: 'bo@example.com' } },
      { name: 'Bo', phone: '+14155550121', email: 'bo@example.com' },
    ],
    [
      'first_name and last_name, and external_id',
      { first_name: 'Cy', last_name: 'Young', external_id: 'crm-cy' },
      { name: 'Cy Young', external_id: 'crm-cy' },
    ],
    ['id as the ID', { id: 'crm-di' }, { external_id: 'crm-di' }],
    [
      'contact.id as the ID, a number',
      { contact: { id: 4711, name: 'Ed' } },
      { external_id: '4711', name: 'Ed' },
    ],
    [
      'name before contact.name',
      { name: 'Top', contact: { name: 'Nested', email: 'fi@example.com' } },
      { name: 'Top' },
    ],
    ['external_id before id', { external_id: 'crm-gu', id: 'retry-gu' }, { external_id: 'crm-gu' }],
  ])('reads the default places: %s', async (_case, payload, expected) => {
    const tenant = await system.tenant();
    const integration = await integrationOf(tenant);
    const answer = await deliver(integration, payload);
    expect(answer.status).toBe(202);
    expect(answer.body.data.event_id).toBeNull();
    expect(await contact(tenant, answer.body.data.contact_id)).toMatchObject(expected);
  });

  it('reads marketing consent from marketing_consent, and takes opt_in as consent on every channel', async () => {
    const tenant = await system.tenant();
    const integration = await integrationOf(tenant);
    const some = await deliver(integration, {
      phone: '+14155550130',
      marketing_consent: { sms: true, email: false },
    });
    expect((await contact(tenant, some.body.data.contact_id)).marketing_consent).toMatchObject({
      sms: true,
      email: false,
      whatsapp: null,
    });
    const all = await deliver(integration, { phone: '+14155550131', opt_in: true });
    expect(Object.values((await contact(tenant, all.body.data.contact_id)).marketing_consent)).toEqual(
      Array(8).fill(true),
    );
    const withdrawn = await deliver(integration, { phone: '+14155550131', opt_in: 'no' });
    expect(withdrawn.body.data.contact_id).toBe(all.body.data.contact_id);
    expect(Object.values((await contact(tenant, all.body.data.contact_id)).marketing_consent)).toEqual(
      Array(8).fill(false),
    );
  });

  it('reads the field mappings first, and falls back to the default places where a mapped place is empty', async () => {
    const tenant = await system.tenant();
    const integration = await integrationOf(tenant, {
      config: {
        sync_frequency: null,
        field_mappings: [
          { source: 'customer.mobile', target: 'phone' },
          { source: 'customer.emails.0', target: 'email' },
          { source: 'customer.given', target: 'first_name' },
          { source: 'customer.family', target: 'last_name' },
          { source: 'customer.ref', target: 'external_id' },
          { source: 'customer.gdpr', target: 'marketing_consent' },
        ],
      },
    });
    const mapped = await deliver(integration, {
      event: 'order.paid',
      phone: '+14155550140',
      email: 'default@example.com',
      name: 'Default Name',
      external_id: 'default-ref',
      opt_in: false,
      customer: {
        mobile: '+14155550141',
        emails: ['mapped@example.com'],
        given: 'Mia',
        family: 'Mapped',
        ref: 'mapped-ref',
        gdpr: true,
      },
    });
    expect(mapped.status).toBe(202);
    const stored = await contact(tenant, mapped.body.data.contact_id);
    expect(stored).toMatchObject({
      phone: '+14155550141',
      email: 'mapped@example.com',
      name: 'Mia Mapped',
      external_id: 'mapped-ref',
    });
    expect(Object.values(stored.marketing_consent)).toEqual(Array(8).fill(true));

    const fallback = await deliver(integration, {
      phone: '+14155550142',
      name: 'Only Default',
      customer: { mobile: '', emails: [] },
    });
    expect(await contact(tenant, fallback.body.data.contact_id)).toMatchObject({
      phone: '+14155550142',
      name: 'Only Default',
    });
  });

  it('only adds or updates the contact when there is no event: newer values win and no event is recorded', async () => {
    const tenant = await system.tenant();
    const integration = await integrationOf(tenant);
    const first = await deliver(integration, {
      phone: '+14155550150',
      name: 'First',
      email: 'first@example.com',
    });
    expect(first.status).toBe(202);
    expect(first.body.data.event_id).toBeNull();
    const second = await deliver(integration, { contact: { phone: '+1 415 555 0150', name: 'Second' } });
    expect(second.status).toBe(202);
    expect(second.body.data.contact_id).toBe(first.body.data.contact_id);
    const byEmail = await deliver(integration, {
      email: 'FIRST@example.com',
      contact: { data: { plan: 'gold' } },
    });
    expect(byEmail.body.data.contact_id).toBe(first.body.data.contact_id);
    expect(await contact(tenant, first.body.data.contact_id)).toMatchObject({
      name: 'Second',
      phone: '+14155550150',
      // Matched ignoring case; the newer value is stored as sent.
      email: 'FIRST@example.com',
      data: { plan: 'gold' },
    });
    expect(await contacts(tenant)).toHaveLength(1);
    expect(await events(tenant)).toEqual([]);
  });

  it("works on every plan, within the plan's stored-contacts limit", async () => {
    const tenant = await system.tenant('pro');
    const integration = await integrationOf(tenant);
    const downgraded = await system.call('PATCH', `/admin/v1/workspaces/${tenant.workspaceId}`, {
      admin: true,
      body: { plan: 'starter' },
    });
    expect(downgraded.status).toBe(200);
    // The plan reaches the gateway's caches within a few seconds, like a key's.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    for (let i = 0; i < STARTER_CONTACTS; i += 1) {
      const answer = await deliver(integration, { event: 'lead.created', phone: `+1415555016${i}` });
      expect(answer.status).toBe(202);
    }
    const over = await deliver<Errors>(integration, { event: 'lead.created', phone: '+14155550169' });
    expect(over.status).toBe(422);
    expect(over.body.errors[0]!.source?.pointer).toBe('/data/attributes/contact');
    const known = await deliver(integration, { phone: '+14155550160' });
    expect(known.status).toBe(202);
  });
});

describe('retries', () => {
  async function concurrently(
    count: number,
    send: () => Promise<Answer<Inbound>>,
  ): Promise<Answer<Inbound>[]> {
    return Promise.all(Array.from({ length: count }, send));
  }

  function expectOneOriginal(answers: Answer<Inbound>[]): Inbound['data'] {
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 202]);
    const ids = new Set(answers.map((answer) => JSON.stringify(answer.body.data)));
    expect(ids.size).toBe(1);
    return answers[0]!.body.data;
  }

  it('records ten concurrent deliveries with the same Idempotency-Key once, answering the original ids', async () => {
    const tenant = await system.tenant();
    const integration = await integrationOf(tenant);
    const answers = await concurrently(10, () =>
      deliver(
        integration,
        { event: 'order.paid', phone: '+14155550170' },
        { headers: { 'idempotency-key': 'delivery-1' } },
      ),
    );
    const original = expectOneOriginal(answers);
    expect(original.event_id).toEqual(expect.any(Number));
    expect((await events(tenant)).map((event) => event.id)).toEqual([original.event_id]);
  });

  it('records ten concurrent deliveries with the same payload id once, answering the original ids', async () => {
    const tenant = await system.tenant();
    const integration = await integrationOf(tenant);
    const answers = await concurrently(10, () =>
      deliver(integration, { id: 'evt_991', event: 'order.paid', contact: { email: 'p@example.com' } }),
    );
    const original = expectOneOriginal(answers);
    expect((await events(tenant)).map((event) => event.id)).toEqual([original.event_id]);
    // A later retry with another key but the same id is still the same delivery.
    const later = await deliver(
      integration,
      { id: 'evt_991', event: 'order.paid', contact: { email: 'p@example.com' } },
      { headers: { 'idempotency-key': 'another-key' } },
    );
    expect([later.status, later.body.data]).toEqual([200, original]);
  });

  it('answers a repeated contact-only delivery with the original contact and changes nothing', async () => {
    const tenant = await system.tenant();
    const integration = await integrationOf(tenant);
    const answers = await concurrently(10, () =>
      deliver(
        integration,
        { phone: '+14155550180', name: 'Original' },
        { headers: { 'idempotency-key': 'c-1' } },
      ),
    );
    const original = expectOneOriginal(answers);
    expect(original.event_id).toBeNull();
    const repeat = await deliver(
      integration,
      { phone: '+14155550180', name: 'Changed' },
      { headers: { 'idempotency-key': 'c-1' } },
    );
    expect([repeat.status, repeat.body.data]).toEqual([200, original]);
    expect(await contact(tenant, original.contact_id)).toMatchObject({ name: 'Original' });
    expect(await contacts(tenant)).toHaveLength(1);
  });

  it("keeps an integration's retry ids apart from other integrations' and from the events API's keys", async () => {
    const tenant = await system.tenant();
    const first = await integrationOf(tenant);
    const second = await integrationOf(tenant);
    const payload = { event: 'order.paid', phone: '+14155550190' };
    const headers = { 'idempotency-key': 'shared-key' };
    const a = await deliver(first, payload, { headers });
    const b = await deliver(second, payload, { headers });
    const direct = await system.call<{ data: { id: number } }>('POST', '/api/v1/events', {
      key: tenant.key,
      body: { name: 'order.paid', contact: { phone: '+14155550190' } },
      headers,
    });
    expect([a.status, b.status, direct.status]).toEqual([202, 202, 202]);
    const ids = [a.body.data.event_id, b.body.data.event_id, direct.body.data.id];
    expect(new Set(ids).size).toBe(3);
    expect(await events(tenant)).toHaveLength(3);
  });
});

describe('workspaces are isolated', () => {
  it("records what A's URL receives into A only, and keeps A's integration from B's key", async () => {
    const a = await system.tenant();
    const b = await system.tenant();
    const integration = await integrationOf(a);
    const own = await integrationOf(b);
    const answer = await deliver(integration, { event: 'lead.created', email: 'iso@example.com' });
    expect(answer.status).toBe(202);
    expect((await events(a)).map((event) => event.id)).toEqual([answer.body.data.event_id]);
    expect(await events(b)).toEqual([]);
    expect(await contacts(b)).toEqual([]);
    const foreign = await system.call<Errors>('GET', `/api/v1/integrations/${integration.id}`, {
      key: b.key,
    });
    expect(foreign.status).toBe(404);
    const contactOfA = await system.call('GET', `/api/v1/contacts/${answer.body.data.contact_id}`, {
      key: b.key,
    });
    expect(contactOfA.status).toBe(404);
    // B's secret signs nothing for A's URL, and B's URL records into B.
    const crossSigned = await deliver(
      integration,
      { email: 'iso@example.com' },
      {
        signature: hmac(JSON.stringify({ email: 'iso@example.com' }), own.secret),
      },
    );
    expect(crossSigned.status).toBe(401);
    const intoB = await deliver(own, { event: 'lead.created', email: 'iso@example.com' });
    expect(intoB.body.data.contact_id).not.toBe(answer.body.data.contact_id);
    expect((await events(b)).map((event) => event.id)).toEqual([intoB.body.data.event_id]);
  });
});

describe('fuzzing the inbound webhook', () => {
  it('answers random bodies, signed or not, with 2xx or a 4xx JSON:API error, never a 5xx', async () => {
    const tenant = await system.tenant();
    const integration = await integrationOf(tenant, {
      config: {
        field_mappings: [
          { source: 'a.b', target: 'phone' },
          { source: 'c', target: 'marketing_consent' },
        ],
      },
    });
    const body = fc.oneof(
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc
        .record(
          {
            event: fc.oneof(fc.string(), fc.constantFrom('order.paid', null)),
            phone: fc.oneof(fc.string(), fc.integer()),
            email: fc.string(),
            id: fc.oneof(fc.string(), fc.integer(), fc.object()),
            a: fc.oneof(fc.object(), fc.record({ b: fc.jsonValue() })),
            c: fc.jsonValue(),
            contact: fc.oneof(fc.object(), fc.jsonValue()),
            data: fc.jsonValue(),
            occurred_at: fc.oneof(
              fc.string(),
              fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
            ),
          },
          { requiredKeys: [] },
        )
        .map((value) => JSON.stringify(value)),
      fc.constantFrom('{', '', '{"__proto__": {"x": 1}, "phone": "+14155550199"}', '\u0000'),
    );
    await fc.assert(
      fc.asyncProperty(body, fc.boolean(), async (text, signed) => {
        const answer = await deliver<unknown>(integration, undefined, {
          raw: text,
          signature: signed ? `sha256=${hmac(text, integration.secret)}` : 'sha256=00',
        });
        expect(answer.status).toBeLessThan(500);
        if (answer.status >= 400) expect((answer.body as Errors).errors.length).toBeGreaterThan(0);
      }),
      { numRuns: 150 },
    );
  }, 120000);
});
