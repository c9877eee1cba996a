import { eventually } from '@cms/testing';

import { startMessagingScenario, type Hook, type MessagingScenario, type System } from '../src';

/**
 * Opt-out keywords end to end through the real gateway, contacts, messaging and webhook-dispatch: a
 * contact texts "stop" to a sandbox channel, the address is on the suppression list, marketing to it is
 * suppressed, consent.revoked (source keyword) reaches the customer; "START" undoes it all.
 */

interface Entry {
  id: string;
  channel: string;
  address: string;
  reason: string;
  source: string;
}

let scenario: MessagingScenario;
let system: System;
let key: string;
let hooks: Hook[];
let create: MessagingScenario['create'];

beforeAll(async () => {
  scenario = await startMessagingScenario('suppressions-e2e', [
    'consent.granted',
    'consent.revoked',
    'message.suppressed',
  ]);
  ({ system, key, create } = scenario);
  hooks = scenario.receiver.hooks;
}, 120000);

afterAll(async () => {
  await scenario?.stop();
});

async function entries(): Promise<Entry[]> {
  const answer = await system.call<{ data: Entry[] }>('GET', '/api/v1/suppressions?filter[channel]=sms', {
    key,
  });
  expect(answer.status).toBe(200);
  return answer.body.data;
}

function hookWhere(what: string, matches: (hook: Hook) => boolean): Promise<Hook> {
  return eventually(what, () => Promise.resolve(hooks.find(matches)), 20000);
}

async function statusOf(id: string, wanted: string): Promise<Record<string, unknown>> {
  return eventually(
    `message ${id} ${wanted}`,
    async () => {
      const answer = await system.call<{ data: Record<string, unknown> }>('GET', `/api/v1/messages/${id}`, {
        key,
      });
      return answer.body.data?.['status'] === wanted ? answer.body.data : undefined;
    },
    20000,
  );
}

it('an inbound "stop" suppresses the address and revokes consent with source keyword; "START" reverses it', async () => {
  const sms = await create('/api/v1/channels', { type: 'sms', name: 'Sandbox SMS', provider: 'sandbox' });
  const template = await create('/api/v1/templates', { name: 'promo', channel: 'sms', body: 'Sale today' });
  const contactId = await create('/api/v1/contacts/upsert', {
    phone: '+14155550142',
    name: 'Kim',
    marketing_consent: { sms: true },
  });
  const inbound = (text: string) =>
    system.call('POST', `/api/v1/channels/${sms}/sandbox/inbound`, {
      key,
      body: { from: '+14155550142', text },
    });

  // The messaging service knows the contact once its facts arrived: a message to it is then sent.
  const hello = await system.call<{ data: { id: string } }>('POST', '/api/v1/messages', {
    key,
    body: { contact_id: contactId, route: [{ channel: 'sms', template_id: template }] },
  });
  await statusOf(hello.body.data.id, 'delivered');

  const stop = await inbound(' stop ');
  expect(stop.status).toBe(202);
  expect(stop.body).toMatchObject({ data: { direction: 'inbound', contact_id: contactId, body: ' stop ' } });
  const [entry] = await eventually('the keyword entry', async () => {
    const list = await entries();
    return list.length > 0 ? list : undefined;
  });
  expect(entry).toMatchObject({
    channel: 'sms',
    address: '+14155550142',
    reason: 'opted_out',
    source: 'keyword',
  });
  expect(entry!.id).toMatch(/^sup_[0-9a-f]{32}$/);
  const revoked = await hookWhere('consent.revoked', (hook) => hook.type === 'consent.revoked');
  expect(revoked.data).toMatchObject({
    channel: 'sms',
    status: 'revoked',
    source: 'keyword',
    contact: expect.objectContaining({ id: contactId }),
  });

  const marketing = {
    contact_id: contactId,
    route: [{ channel: 'sms', template_id: template }],
    purpose: 'marketing',
  };
  const blocked = await system.call<{ data: { id: string } }>('POST', '/api/v1/messages', {
    key,
    body: marketing,
  });
  expect(blocked.status).toBe(202);
  const suppressed = await statusOf(blocked.body.data.id, 'suppressed');
  expect(suppressed['suppression']).toMatchObject({ reason: 'suppressed_address' });
  await hookWhere('message.suppressed', (hook) => hook.data['id'] === blocked.body.data.id);

  expect((await inbound('START')).status).toBe(202);
  await eventually('the entry removed', async () => ((await entries()).length === 0 ? true : undefined));
  // The upsert's consent was granted with source api: the keyword's grant is the second.
  const granted = await hookWhere(
    'consent.granted by keyword',
    (hook) => hook.type === 'consent.granted' && hook.data['source'] === 'keyword',
  );
  expect(granted.data).toMatchObject({ channel: 'sms', status: 'granted', source: 'keyword' });
  // The grant reaches the messaging service's contact view as a contact fact: marketing goes out again.
  await eventually(
    'a marketing message sent again',
    async () => {
      const again = await system.call<{ data: { id: string } }>('POST', '/api/v1/messages', {
        key,
        body: marketing,
      });
      const id = again.body.data.id;
      const settled = await eventually(`message ${id} settled`, async () => {
        const answer = await system.call<{ data: { status: string } }>('GET', `/api/v1/messages/${id}`, {
          key,
        });
        return answer.body.data.status === 'queued' ? undefined : answer.body.data.status;
      });
      return settled === 'suppressed' ? undefined : settled;
    },
    20000,
  );
}, 60000);

it('makes an unknown sender on a phone channel a contact and links the inbound message to it', async () => {
  const sms = await create('/api/v1/channels', { type: 'sms', name: 'Inbound SMS', provider: 'sandbox' });
  const answer = await system.call<{ data: { id: string; contact_id: number | null } }>(
    'POST',
    `/api/v1/channels/${sms}/sandbox/inbound`,
    { key, body: { from: '+14155550177', text: 'Hello, who is this?' } },
  );
  expect(answer.status).toBe(202);
  expect(answer.body.data.contact_id).toBeNull();
  const contactId = await eventually(
    'the message linked to a new contact',
    async () => {
      const message = await system.call<{ data: { contact_id: number | null } }>(
        'GET',
        `/api/v1/messages/${answer.body.data.id}`,
        { key },
      );
      return message.body.data.contact_id ?? undefined;
    },
    20000,
  );
  const contact = await system.call<{ data: Record<string, unknown> }>(
    'GET',
    `/api/v1/contacts/${contactId}`,
    {
      key,
    },
  );
  expect(contact.body.data).toMatchObject({ id: contactId, phone: '+14155550177', source: 'inbound' });
}, 30000);

it('takes a manual entry that says it is manual, and refuses any other reason with a pointer, adding nothing', async () => {
  const manual = await system.call<{ data: Entry }>('POST', '/api/v1/suppressions', {
    key,
    body: { channel: 'sms', address: '+44 7700 900123', reason: 'manual' },
  });
  expect(manual.status).toBe(201);
  expect(manual.body.data).toMatchObject({
    channel: 'sms',
    address: '+447700900123',
    reason: 'manual',
    source: 'api',
  });
  for (const reason of ['opted_out', 'bounced', 'MANUAL', 7]) {
    const refused = await system.call<{ errors: Array<{ source: { pointer: string }; detail: string }> }>(
      'POST',
      '/api/v1/suppressions',
      { key, body: { channel: 'sms', address: '+447700900456', reason } },
    );
    expect([reason, refused.status, refused.body.errors[0]!.source.pointer]).toEqual([
      reason,
      422,
      '/data/attributes/reason',
    ]);
  }
  expect((await entries()).map((entry) => entry.address)).not.toContain('+447700900456');
}, 30000);
