import { CONTACT_REQUEST_TYPES, EVENT_REQUEST_TYPES, type Envelope } from '@cms/contracts';

import { ContactsHarness, type Outcome, type RequestOptions } from './contacts.harness';

let harness: ContactsHarness;
beforeAll(async () => {
  harness = await ContactsHarness.start();
});

afterAll(async () => {
  await harness?.stop();
});

const INTEGRATION = 31;

function ingestRecord(
  workspaceId: number,
  contact: Record<string, unknown>,
  retryKeys: string[] = [],
  options: RequestOptions & { limit?: number } = {},
): Envelope {
  return harness.envelope(
    CONTACT_REQUEST_TYPES.ingest,
    workspaceId,
    {
      contact,
      contact_id: harness.id(),
      contact_limit: options.limit ?? 1000,
      integration_id: INTEGRATION,
      retry_keys: retryKeys,
    },
    options,
  );
}

function inboundEventRecord(
  workspaceId: number,
  contact: Record<string, unknown>,
  retryKeys: string[],
): Envelope {
  return harness.envelope(EVENT_REQUEST_TYPES.record, workspaceId, {
    name: 'order.paid',
    contact,
    data: { total: 5 },
    event_id: harness.id(),
    contact_id: harness.id(),
    contact_limit: 1000,
    integration_id: INTEGRATION,
    retry_keys: retryKeys,
  });
}

async function decide(envelope: Envelope): Promise<Outcome> {
  await harness.produce(envelope);
  return harness.outcomeOf(envelope);
}

async function contactOf(workspaceId: number, id: unknown): Promise<Record<string, unknown>> {
  const reply = await harness.get(`/internal/v1/contacts/${String(id)}`, workspaceId);
  expect(reply.status).toBe(200);
  return reply.body.data as Record<string, unknown>;
}

describe('contact.ingest.requested', () => {
  it('creates the contact under the minted id with 202 {event_id: null, contact_id} and publishes contact.created', async () => {
    const ws = harness.workspace();
    const envelope = ingestRecord(ws, { phone: '+1 415 555 0300', name: 'Ina', email: 'ina@example.com' });
    const outcome = await decide(envelope);
    const minted = (envelope.data as { contact_id: number }).contact_id;
    expect(outcome).toMatchObject({ status: 202, resource: { event_id: null, contact_id: minted } });
    expect(await contactOf(ws, minted)).toMatchObject({
      name: 'Ina',
      phone: '+14155550300',
      email: 'ina@example.com',
    });
    const facts = await harness.factsOf(outcome);
    expect(facts.map((fact) => fact.type)).toEqual(['contact.created']);
  });

  it('matches by phone, then external_id, then email, and records no event', async () => {
    const ws = harness.workspace();
    const created = await decide(
      ingestRecord(ws, { phone: '+14155550301', external_id: 'crm-1', email: 'm@example.com' }),
    );
    const id = created.resource!.contact_id;
    for (const contact of [
      { phone: '+1 (415) 555-0301' },
      { external_id: 'crm-1' },
      { email: 'M@EXAMPLE.COM' },
    ]) {
      const outcome = await decide(ingestRecord(ws, { ...contact, name: 'Matched' }));
      expect([contact, outcome.status, outcome.resource!.contact_id]).toEqual([contact, 202, id]);
    }
    const events = await harness.get('/internal/v1/events', ws);
    expect(events.body.data).toEqual([]);
  });

  it('lets newer values win: a delivery received earlier than the stored value does not overwrite it', async () => {
    const ws = harness.workspace();
    const now = await decide(ingestRecord(ws, { phone: '+14155550302', name: 'Newer' }));
    const older = await decide(
      ingestRecord(ws, { phone: '+14155550302', name: 'Older' }, [], { time: '2020-01-01T00:00:00.000Z' }),
    );
    expect(older.resource!.contact_id).toBe(now.resource!.contact_id);
    expect(await contactOf(ws, now.resource!.contact_id)).toMatchObject({ name: 'Newer' });
  });

  it("refuses with 422 a contact that would take the workspace past its plan's limit", async () => {
    const ws = harness.workspace();
    await decide(ingestRecord(ws, { email: 'one@example.com' }, [], { limit: 1 }));
    const over = await decide(ingestRecord(ws, { email: 'two@example.com' }, [], { limit: 1 }));
    expect(over.status).toBe(422);
    expect(over.errors![0]!.source?.pointer).toBe('/data/attributes/contact');
    const known = await decide(
      ingestRecord(ws, { email: 'one@example.com', name: 'Known' }, [], { limit: 1 }),
    );
    expect(known.status).toBe(202);
  });

  it('answers a repeated retry key with 200 and the original contact, changing nothing and publishing nothing', async () => {
    const ws = harness.workspace();
    const first = await decide(
      ingestRecord(ws, { phone: '+14155550303', name: 'Original' }, ['integration:31:id:a']),
    );
    const repeat = await decide(
      ingestRecord(ws, { phone: '+14155550399', name: 'Changed' }, [
        'integration:31:header:x',
        'integration:31:id:a',
      ]),
    );
    expect(repeat).toMatchObject({ status: 200, resource: first.resource });
    expect(await harness.settledFactsOf(repeat)).toEqual([]);
    expect(await contactOf(ws, first.resource!.contact_id)).toMatchObject({
      name: 'Original',
      phone: '+14155550303',
    });
    const contacts = await harness.get('/internal/v1/contacts', ws);
    expect(contacts.body.data).toHaveLength(1);
  });
});

describe('event.record.requested from an inbound webhook', () => {
  it('answers {event_id, contact_id}, and a repeat of either retry key with 200 and the original ids', async () => {
    const ws = harness.workspace();
    const first = await decide(
      inboundEventRecord(ws, { email: 'ev@example.com' }, ['integration:31:header:k', 'integration:31:id:9']),
    );
    expect(first).toMatchObject({
      status: 202,
      resource: { event_id: expect.any(Number), contact_id: expect.any(Number) },
    });
    expect(Object.keys(first.resource!).sort()).toEqual(['contact_id', 'event_id']);
    const facts = await harness.factsOf(first, 2);
    expect(facts.map((fact) => fact.type)).toEqual(['contact.created', 'event.recorded']);
    for (const keys of [
      ['integration:31:header:k'],
      ['integration:31:id:9'],
      ['integration:31:header:z', 'integration:31:id:9'],
    ]) {
      const repeat = await decide(inboundEventRecord(ws, { email: 'other@example.com' }, keys));
      expect([keys, repeat.status, repeat.resource]).toEqual([keys, 200, first.resource]);
    }
    const events = await harness.get('/internal/v1/events', ws);
    expect((events.body.data as unknown[]).length).toBe(1);
    expect(events.body.data).toEqual([expect.objectContaining({ idempotency_key: null })]);
  });

  it("never answers a webhook delivery from the events API's Idempotency-Keys, or the reverse", async () => {
    const ws = harness.workspace();
    const viaApi = await decide(
      harness.envelope(EVENT_REQUEST_TYPES.record, ws, {
        name: 'order.paid',
        contact: { email: 'k@example.com' },
        event_id: harness.id(),
        contact_id: harness.id(),
        contact_limit: 1000,
        idempotency_key: 'integration:31:header:same',
      }),
    );
    const viaWebhook = await decide(
      inboundEventRecord(ws, { email: 'k@example.com' }, ['integration:31:header:same']),
    );
    expect([viaApi.status, viaWebhook.status]).toEqual([202, 202]);
    expect(viaWebhook.resource!.event_id).not.toBe(viaApi.resource!.id);
  });
});
