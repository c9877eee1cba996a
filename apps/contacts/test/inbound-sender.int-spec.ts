import { INBOUND_SENDER_REQUEST_TYPE, SUPPRESSION_REQUEST_TYPES, type Envelope } from '@cms/contracts';

import { ContactsHarness } from './contacts.harness';

let harness: ContactsHarness;
beforeAll(async () => {
  harness = await ContactsHarness.start(['requests']);
});

afterAll(async () => {
  await harness?.stop();
});

const MESSAGE = (n: number) => `msg_${n.toString(16).padStart(32, '0')}`;

function sender(
  workspaceId: number,
  message: string,
  phone: string,
  contactId: number,
  limit = 1000,
): Envelope {
  return harness.envelope(INBOUND_SENDER_REQUEST_TYPE, workspaceId, {
    message_id: message,
    channel: 'sms',
    phone,
    contact_id: contactId,
    contact_limit: limit,
  });
}

/** The match the service appended for an inbound message, once it is on the log. */
function matchOf(message: string): Promise<Envelope<Record<string, unknown>>> {
  return harness.waitFor(`the match of ${message}`, () =>
    harness.requests.find(
      (record) =>
        record.type === SUPPRESSION_REQUEST_TYPES.inboundMatch && record.data['message_id'] === message,
    ),
  );
}

describe('an inbound sender (contact.inbound-sender.requested)', () => {
  it('creates an unknown sender under the minted id with source inbound, and answers the match', async () => {
    const ws = harness.workspace();
    const contactId = harness.id();
    const request = sender(ws, MESSAGE(1), '+1 415 555 0301', contactId);
    await harness.produce(request);
    const match = await matchOf(MESSAGE(1));
    expect(match.data).toEqual({ message_id: MESSAGE(1), contact_id: contactId });
    expect(match).toMatchObject({ source: 'contacts', causationid: request.id, workspaceid: String(ws) });
    const created = await harness.waitFor('contact.created', () =>
      harness.facts.find((fact) => fact.causationid === request.id && fact.type === 'contact.created'),
    );
    expect(created.data).toMatchObject({ contact_id: contactId, phone: '+14155550301', source: 'inbound' });
  });

  it('answers the contact that holds the phone already, changing nothing', async () => {
    const ws = harness.workspace();
    const existing = await harness.upsert(ws, { phone: '+14155550302', name: 'Known' });
    const request = sender(ws, MESSAGE(2), '+14155550302', harness.id());
    await harness.produce(request);
    expect((await matchOf(MESSAGE(2))).data).toEqual({
      message_id: MESSAGE(2),
      contact_id: existing.resource!['id'],
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(harness.facts.filter((fact) => fact.causationid === request.id)).toEqual([]);
  });

  it('answers no contact at the plan limit or for a number that is none, creating nobody', async () => {
    const ws = harness.workspace();
    const full = sender(ws, MESSAGE(3), '+14155550303', harness.id(), 0);
    const garbage = sender(ws, MESSAGE(4), 'SHORTCODE', harness.id());
    await harness.produce(full, garbage);
    expect((await matchOf(MESSAGE(3))).data).toEqual({ message_id: MESSAGE(3), contact_id: null });
    expect((await matchOf(MESSAGE(4))).data).toEqual({ message_id: MESSAGE(4), contact_id: null });
    expect(harness.facts.filter((fact) => [full.id, garbage.id].includes(fact.causationid ?? ''))).toEqual(
      [],
    );
  });
});
