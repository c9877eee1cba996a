import { CONTACT_REQUEST_TYPES, EVENT_REQUEST_TYPES, type Envelope } from '@cms/contracts';

import { ContactsHarness, ISO_MS, type Outcome, type RequestOptions } from './contacts.harness';

let harness: ContactsHarness;
beforeAll(async () => {
  harness = await ContactsHarness.start();
});

afterAll(async () => {
  await harness?.stop();
});

interface EventBody {
  name?: string;
  contact: Record<string, unknown>;
  data?: Record<string, unknown>;
  occurred_at?: string | null;
  idempotency_key?: string;
}

function eventRecord(
  workspaceId: number,
  body: EventBody,
  limit = 1000,
  options: RequestOptions = {},
): Envelope {
  return harness.envelope(
    EVENT_REQUEST_TYPES.record,
    workspaceId,
    { name: 'order.paid', event_id: harness.id(), contact_id: harness.id(), contact_limit: limit, ...body },
    options,
  );
}

async function recordEvent(workspaceId: number, body: EventBody, limit = 1000): Promise<Outcome> {
  const envelope = eventRecord(workspaceId, body, limit);
  await harness.produce(envelope);
  return harness.outcomeOf(envelope);
}

async function contactOf(workspaceId: number, id: unknown): Promise<Record<string, unknown>> {
  const reply = await harness.get(`/internal/v1/contacts/${String(id)}`, workspaceId);
  expect(reply.status).toBe(200);
  return reply.body.data as Record<string, unknown>;
}

async function eventsOf(workspaceId: number, query = ''): Promise<Array<Record<string, unknown>>> {
  const reply = await harness.get(`/internal/v1/events${query}`, workspaceId);
  expect(reply.status).toBe(200);
  return reply.body.data as Array<Record<string, unknown>>;
}

describe('POST /api/v1/events', () => {
  it('records the event with 202, creates its contact, and publishes event.recorded with the contact id', async () => {
    const ws = harness.workspace();
    const outcome = await recordEvent(ws, {
      name: 'invoice.due',
      contact: { phone: '+44 7700 900456', name: 'Ada', data: { tier: 'pro' } },
      data: { amount: 42 },
      occurred_at: '2026-03-01T12:00:00+02:00',
    });
    expect(outcome.status).toBe(202);
    expect(outcome.resource).toEqual({
      id: expect.any(Number),
      name: 'invoice.due',
      contact_id: expect.any(Number),
      data: { amount: 42 },
      occurred_at: '2026-03-01T10:00:00.000Z',
      received_at: expect.stringMatching(ISO_MS),
      idempotency_key: null,
    });
    expect(outcome.resource!.received_at).toBe(outcome.envelope.time);
    const contact = await contactOf(ws, outcome.resource!.contact_id);
    expect(contact).toMatchObject({ name: 'Ada', phone: '+447700900456', data: { tier: 'pro' } });

    const facts = await harness.factsOf(outcome, 2);
    expect(facts.map((fact) => fact.type)).toEqual(['contact.created', 'event.recorded']);
    expect(facts[1]!.data).toEqual({
      event_id: outcome.resource!.id,
      name: 'invoice.due',
      contact_id: outcome.resource!.contact_id,
      data: { amount: 42 },
      occurred_at: '2026-03-01T10:00:00.000Z',
      received_at: outcome.resource!.received_at,
      idempotency_key: null,
    });
  });

  it('matches the contact by phone first, then external_id, then email, and creates one when none matches', async () => {
    const ws = harness.workspace();
    const byPhone = (await recordEvent(ws, { contact: { phone: '+14155550701' } })).resource!.contact_id;
    const byExternalId = (await recordEvent(ws, { contact: { external_id: 'crm-7' } })).resource!.contact_id;
    const byEmail = (await recordEvent(ws, { contact: { email: 'seven@example.com' } })).resource!.contact_id;
    expect(new Set([byPhone, byExternalId, byEmail]).size).toBe(3);

    // Each event also writes the identities it sends to the contact it matched, so the order of the
    // checks matters: every check below names an identity of an earlier rank that matches nobody.
    const emailOverPhone = { phone: '+14155550799', email: 'SEVEN@example.com' };
    expect((await recordEvent(ws, { contact: emailOverPhone })).resource!.contact_id).toBe(byEmail);
    const externalIdOverEmail = { external_id: 'crm-7', email: 'seven@example.com' };
    expect((await recordEvent(ws, { contact: externalIdOverEmail })).resource!.contact_id).toBe(byExternalId);
    const everything = { phone: '001 415 555 0701', external_id: 'crm-7', email: 'seven@example.com' };
    expect((await recordEvent(ws, { contact: everything })).resource!.contact_id).toBe(byPhone);
    const created = await recordEvent(ws, { contact: { external_id: 'crm-new' } });
    expect([byPhone, byExternalId, byEmail]).not.toContain(created.resource!.contact_id);

    // A phone that cannot be read is kept as sent and matched as sent.
    const odd = await recordEvent(ws, { contact: { phone: 'ext. 12' } });
    expect((await contactOf(ws, odd.resource!.contact_id)).phone).toBe('ext. 12');
    expect((await recordEvent(ws, { contact: { phone: ' ext. 12' } })).resource!.contact_id).toBe(
      odd.resource!.contact_id,
    );
  });

  it('lets newer values win by occurred_at, across events and direct updates', async () => {
    const ws = harness.workspace();
    const contact = { external_id: 'late-1' };
    const newer = await recordEvent(ws, {
      contact: { ...contact, name: 'Newer', data: { plan: 'gold' } },
      occurred_at: '2026-01-02T00:00:00Z',
    });
    const id = newer.resource!.contact_id;
    const older = await recordEvent(ws, {
      contact: {
        ...contact,
        name: 'Older',
        email: 'late@example.com',
        data: { plan: 'silver', city: 'Oslo' },
      },
      occurred_at: '2026-01-01T00:00:00Z',
    });
    expect(older.status).toBe(202);
    expect(await contactOf(ws, id)).toMatchObject({
      name: 'Newer',
      email: 'late@example.com',
      data: { plan: 'gold', city: 'Oslo' },
    });

    // A direct update counts as happening when it was received: now, later than both events.
    const put = await harness.request(CONTACT_REQUEST_TYPES.update, ws, { contact_id: id, name: 'Direct' });
    expect(put.resource!.name).toBe('Direct');
    await recordEvent(ws, { contact: { ...contact, name: 'Stale' }, occurred_at: '2026-01-03T00:00:00Z' });
    expect((await contactOf(ws, id)).name).toBe('Direct');
    // An event that happened after the update wins over it.
    const future = new Date(Date.now() + 60_000).toISOString();
    await recordEvent(ws, { contact: { ...contact, name: 'Future' }, occurred_at: future });
    expect((await contactOf(ws, id)).name).toBe('Future');
  });

  it('answers 422 at /data/attributes/contact when a new contact would pass the plan limit, and records nothing', async () => {
    const ws = harness.workspace();
    await recordEvent(ws, { contact: { email: 'one@example.com' } }, 1);
    const refused = await recordEvent(ws, { contact: { email: 'two@example.com' } }, 1);
    expect(refused.status).toBe(422);
    expect(refused.errors).toEqual([
      expect.objectContaining({ status: '422', source: { pointer: '/data/attributes/contact' } }),
    ]);
    expect(await harness.settledFactsOf(refused)).toEqual([]);
    expect(await eventsOf(ws)).toHaveLength(1);
    // An event about a stored contact is fine at the limit.
    expect((await recordEvent(ws, { contact: { email: 'one@example.com' } }, 1)).status).toBe(202);
  });

  it('answers 422 at /data/attributes/contact/data when the contact data it merges would pass 64 KiB, and records nothing', async () => {
    const ws = harness.workspace();
    const half = 'x'.repeat(40 * 1024);
    expect((await recordEvent(ws, { contact: { email: 'big@example.com', data: { a: half } } })).status).toBe(
      202,
    );
    const refused = await recordEvent(ws, { contact: { email: 'big@example.com', data: { b: half } } });
    expect(refused.status).toBe(422);
    expect(refused.errors).toEqual([
      expect.objectContaining({ status: '422', source: { pointer: '/data/attributes/contact/data' } }),
    ]);
    expect(await harness.settledFactsOf(refused)).toEqual([]);
    expect(await eventsOf(ws)).toHaveLength(1);
    // Replacing a key keeps the data within the bound, so it is taken.
    expect(
      (await recordEvent(ws, { contact: { email: 'big@example.com', data: { a: 'small', b: half } } }))
        .status,
    ).toBe(202);
  });
});

describe('the Idempotency-Key', () => {
  it('answers 200 with the original event when the key was already used, and records nothing again', async () => {
    const ws = harness.workspace();
    const body = { contact: { email: 'idem@example.com' }, idempotency_key: 'invoice-1-due' };
    const first = await recordEvent(ws, { ...body, data: { n: 1 } });
    expect(first.status).toBe(202);
    expect(first.resource!.idempotency_key).toBe('invoice-1-due');
    const again = await recordEvent(ws, {
      ...body,
      data: { n: 2 },
      contact: { email: 'idem@example.com', name: 'X' },
    });
    expect(again.status).toBe(200);
    expect(again.resource).toEqual(first.resource);
    expect(await harness.settledFactsOf(again)).toEqual([]);
    expect(await eventsOf(ws)).toHaveLength(1);
    expect((await contactOf(ws, first.resource!.contact_id)).name).toBeNull();

    // Keys are per workspace.
    expect((await recordEvent(harness.workspace(), body)).status).toBe(202);
  });

  it('records one event for two identical requests produced back to back', async () => {
    const ws = harness.workspace();
    const body = { contact: { phone: '+14155550801' }, idempotency_key: 'race' };
    const a = eventRecord(ws, body);
    const b = eventRecord(ws, body);
    await harness.produce(a, b);
    const [first, second] = [await harness.outcomeOf(a), await harness.outcomeOf(b)];
    expect([first.status, second.status]).toEqual([202, 200]);
    expect(second.resource).toEqual(first.resource);
    await harness.factsOf(first, 2);
    await harness.settledFactsOf(second);
    const recorded = harness.facts.filter(
      (fact) => fact.type === 'event.recorded' && fact.workspaceid === String(ws),
    );
    expect(recorded).toHaveLength(1);
    expect(await eventsOf(ws)).toHaveLength(1);
  });
});

describe('consent through events', () => {
  it('publishes consent.granted and consent.revoked only when a channel flips', async () => {
    const ws = harness.workspace();
    const contact = {
      phone: '+14155550901',
      external_id: 'c-9',
      name: 'Consenting',
      email: 'c9@example.com',
    };
    const granted = await recordEvent(ws, {
      contact: { ...contact, marketing_consent: { sms: true, email: false } },
      occurred_at: '2026-02-01T00:00:00Z',
    });
    const id = granted.resource!.contact_id;
    const grantFacts = (await harness.factsOf(granted, 3)).filter((fact) => fact.type.startsWith('consent.'));
    expect(grantFacts.map((fact) => [fact.type, fact.data])).toEqual([
      [
        'consent.granted',
        {
          channel: 'sms',
          status: 'granted',
          source: 'api',
          contact: {
            id,
            external_id: 'c-9',
            name: 'Consenting',
            phone: '+14155550901',
            email: 'c9@example.com',
          },
          occurred_at: '2026-02-01T00:00:00.000Z',
        },
      ],
    ]);

    const repeated = await recordEvent(ws, {
      contact: { ...contact, marketing_consent: { sms: true } },
      occurred_at: '2026-02-01T12:00:00Z',
    });
    expect((await harness.settledFactsOf(repeated)).map((fact) => fact.type)).toEqual(['event.recorded']);

    const revoked = await recordEvent(ws, {
      contact: { ...contact, marketing_consent: { sms: false, whatsapp: true } },
      occurred_at: '2026-02-03T00:00:00Z',
    });
    const revokeFacts = (await harness.factsOf(revoked, 4)).filter((fact) =>
      fact.type.startsWith('consent.'),
    );
    expect(revokeFacts.map((fact) => [fact.type, fact.data.channel, fact.data.status])).toEqual([
      ['consent.granted', 'whatsapp', 'granted'],
      ['consent.revoked', 'sms', 'revoked'],
    ]);

    // An older grant arriving late changes nothing.
    const late = await recordEvent(ws, {
      contact: { ...contact, marketing_consent: { sms: true } },
      occurred_at: '2026-02-02T00:00:00Z',
    });
    expect((await harness.settledFactsOf(late)).map((fact) => fact.type)).toEqual(['event.recorded']);
    expect((await contactOf(ws, id)).marketing_consent).toEqual({
      whatsapp: true,
      sms: false,
      email: false,
      rcs: null,
      telegram: null,
      messenger: null,
      instagram: null,
      browser_push: null,
    });
  });
});

describe('consent from a channel (contact.consent-change.requested)', () => {
  it('revokes and grants with the source the channel reported, unanswered, and skips an unknown contact', async () => {
    const ws = harness.workspace();
    const created = await harness.upsert(ws, {
      phone: '+14155550977',
      name: 'Channel Consent',
      marketing_consent: { sms: true },
    });
    const id = created.resource!.id as number;
    const change = (granted: boolean, source: string, contactId = id): Envelope =>
      harness.envelope(CONTACT_REQUEST_TYPES.consentChange, ws, {
        contact_id: contactId,
        channel: 'sms',
        granted,
        source,
        occurred_at: new Date().toISOString(),
      });
    const revoke = change(false, 'provider');
    await harness.produce(revoke);
    const revoked = await harness.waitFor('consent.revoked from the channel', () =>
      harness.facts.find((fact) => fact.causationid === revoke.id && fact.type === 'consent.revoked'),
    );
    expect(revoked.data).toMatchObject({ channel: 'sms', status: 'revoked', source: 'provider' });
    expect((await contactOf(ws, id)).marketing_consent).toMatchObject({ sms: false });

    const grant = change(true, 'keyword');
    const unknown = change(false, 'keyword', harness.id());
    await harness.produce(grant, unknown);
    const granted = await harness.waitFor('consent.granted from the channel', () =>
      harness.facts.find((fact) => fact.causationid === grant.id && fact.type === 'consent.granted'),
    );
    expect(granted.data).toMatchObject({ channel: 'sms', status: 'granted', source: 'keyword' });
    expect((await contactOf(ws, id)).marketing_consent).toMatchObject({ sms: true });
    // Nobody waits for these: no outcome is published for either, and the unknown contact changes nothing.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(harness.facts.filter((fact) => fact.causationid === unknown.id)).toEqual([]);
  });
});

describe('GET /internal/v1/events', () => {
  it('lists newest first, filtered by filter[name] or name', async () => {
    const ws = harness.workspace();
    const names = ['a.one', 'b.two', 'a.one'];
    const ids: number[] = [];
    for (const name of names) {
      ids.push(
        (await recordEvent(ws, { name, contact: { email: 'list@example.com' } })).resource!.id as number,
      );
    }
    expect((await eventsOf(ws)).map((event) => event.id)).toEqual([...ids].reverse());
    expect((await eventsOf(ws, '?filter[name]=a.one')).map((event) => event.id)).toEqual([ids[2], ids[0]]);
    expect((await eventsOf(ws, '?name=b.two')).map((event) => event.id)).toEqual([ids[1]]);
    const page = await harness.get('/internal/v1/events?per_page=1&page=3', ws);
    expect(page.body.meta).toEqual({ current_page: 3, per_page: 1, total: 3, last_page: 3 });
    expect(await eventsOf(harness.workspace())).toEqual([]);
    expect((await harness.get('/internal/v1/events')).status).toBe(400);
  });
});
