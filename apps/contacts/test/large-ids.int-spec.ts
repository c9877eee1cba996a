import { CONTACT_REQUEST_TYPES, EVENT_REQUEST_TYPES, TAG_REQUEST_TYPES } from '@cms/contracts';

import { ContactsHarness, type Outcome } from './contacts.harness';

/**
 * Identifiers are positive integers up to 2^53 − 1 (extensions §1). The gateway mints them; here they
 * are minted just below that bound, past the 2^31 − 1 of an integer column, and every kind goes
 * through the real service: decided, stored, published, answered and read back as the same numbers.
 */
const MAX = Number.MAX_SAFE_INTEGER;
/** The largest workspace id there is: the envelope's workspaceid carries all 16 digits. */
const WORKSPACE = MAX;
const CONTACT = MAX;
const OTHER_CONTACT = MAX - 1;
const TAG = MAX - 2;
const EVENT = MAX - 3;
const KEYED_EVENT = MAX - 4;
const INTEGRATION = MAX - 5;

let harness: ContactsHarness;

beforeAll(async () => {
  harness = await ContactsHarness.start();
});

afterAll(async () => {
  await harness?.stop();
});

async function decide(type: string, data: object): Promise<Outcome> {
  return harness.request(type, WORKSPACE, data);
}

async function read(path: string): Promise<unknown> {
  const reply = await harness.get(path, WORKSPACE);
  expect([path, reply.status]).toEqual([path, 200]);
  return reply.body.data;
}

describe('identifiers just below 2^53 − 1', () => {
  it('are stored, answered, published and read back as the same numbers for every kind', async () => {
    const tag = await decide(TAG_REQUEST_TYPES.create, { tag_id: TAG, name: 'Largest' });
    expect(tag).toMatchObject({ status: 201, resource: { id: TAG } });

    const contact = await decide(CONTACT_REQUEST_TYPES.upsert, {
      contact_id: CONTACT,
      contact_limit: 100,
      name: 'Ada',
      phone: '+14155550190',
    });
    expect(contact).toMatchObject({ status: 201, resource: { id: CONTACT } });
    const [created] = await harness.factsOf(contact);
    expect(created).toMatchObject({
      type: 'contact.created',
      workspaceid: String(WORKSPACE),
      data: { contact_id: CONTACT },
    });

    const attached = await decide(TAG_REQUEST_TYPES.attach, { contact_id: CONTACT, tag_ids: [TAG] });
    expect(attached).toMatchObject({ status: 200, resource: { id: CONTACT, tags: [{ id: TAG }] } });

    // Through an integration: the receipt keeps the integration, event and contact ids.
    const inbound = {
      name: 'order.paid',
      contact: { phone: '+14155550190' },
      data: { total: 5 },
      event_id: EVENT,
      contact_id: OTHER_CONTACT,
      contact_limit: 100,
      integration_id: INTEGRATION,
      retry_keys: [`integration:${INTEGRATION}:id:delivery-1`],
    };
    expect(await decide(EVENT_REQUEST_TYPES.record, inbound)).toMatchObject({
      status: 202,
      resource: { event_id: EVENT, contact_id: CONTACT },
    });
    const repeated = await decide(EVENT_REQUEST_TYPES.record, { ...inbound, event_id: EVENT - 100 });
    expect(repeated).toMatchObject({ status: 200, resource: { event_id: EVENT, contact_id: CONTACT } });

    // By Idempotency-Key: the repeat finds the event by its key and answers its ids.
    const keyed = {
      name: 'signup',
      contact: { phone: '+14155550190' },
      event_id: KEYED_EVENT,
      contact_id: OTHER_CONTACT,
      contact_limit: 100,
      idempotency_key: 'large-1',
    };
    const recorded = await decide(EVENT_REQUEST_TYPES.record, keyed);
    expect(recorded).toMatchObject({ status: 202, resource: { id: KEYED_EVENT, contact_id: CONTACT } });
    const [fact] = await harness.factsOf(recorded);
    expect(fact).toMatchObject({
      type: 'event.recorded',
      data: { event_id: KEYED_EVENT, contact_id: CONTACT },
    });
    expect(await decide(EVENT_REQUEST_TYPES.record, { ...keyed, event_id: KEYED_EVENT - 100 })).toMatchObject(
      {
        status: 200,
        resource: { id: KEYED_EVENT, contact_id: CONTACT },
      },
    );

    expect(await read(`/internal/v1/contacts/${CONTACT}`)).toMatchObject({
      id: CONTACT,
      tags: [{ id: TAG, name: 'Largest' }],
    });
    expect(await read('/internal/v1/contacts?filter[phone]=%2B14155550190')).toEqual([
      expect.objectContaining({ id: CONTACT, tags: [expect.objectContaining({ id: TAG })] }),
    ]);
    expect(await read(`/internal/v1/tags/${TAG}`)).toMatchObject({ id: TAG });
    expect(await read('/internal/v1/tags')).toEqual([expect.objectContaining({ id: TAG })]);
    const events = (await read('/internal/v1/events')) as Array<Record<string, unknown>>;
    // Newest first.
    expect(events.map((event) => [event.id, event.contact_id])).toEqual([
      [KEYED_EVENT, CONTACT],
      [EVENT, CONTACT],
    ]);
    expect(await read(`/internal/v1/events?filter[contact_id]=${CONTACT}`)).toHaveLength(2);
  });

  it('keep apart two workspaces whose ids differ only past 2^31', async () => {
    const low = 2 ** 31 + 7;
    const high = 2 ** 32 + 7;
    for (const [workspace, contactId] of [
      [low, MAX - 20],
      [high, MAX - 21],
    ] as const) {
      const outcome = await harness.request(CONTACT_REQUEST_TYPES.upsert, workspace, {
        contact_id: contactId,
        contact_limit: 1,
        name: `Workspace ${workspace}`,
        phone: '+14155550191',
      });
      expect([workspace, outcome.status]).toEqual([workspace, 201]);
    }
    const lowRead = await harness.get('/internal/v1/contacts', low);
    expect(lowRead.body.data).toEqual([expect.objectContaining({ id: MAX - 20, name: `Workspace ${low}` })]);
    // Each workspace has stored one contact, counted against its own limit of one.
    const again = await harness.request(CONTACT_REQUEST_TYPES.upsert, high, {
      contact_id: MAX - 22,
      contact_limit: 1,
      name: 'Second',
      phone: '+14155550192',
    });
    expect(again.status).toBe(422);
  });
});
