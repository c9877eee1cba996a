import { eventually } from '@cms/testing';

import { startMessagingScenario, type Answer, type Hook, type MessagingScenario, type System } from '../src';

/**
 * A tracked link end to end through the real gateway, contacts, messaging and webhook-dispatch: a
 * sandbox SMS goes out with its link rewritten, the customer's contact opens it through the gateway's
 * /l/ redirect, link.clicked reaches the customer's endpoint once, and the message shows the count.
 */

interface Message {
  id: string;
  status: string;
  body: string | null;
  sent_at: string | null;
  links: Array<{ url: string; link_index: number; clicks: number; bot_clicks: number }>;
}

const ORIGINAL = 'https://shop.example.com/o/42?ref=sms&x=1';
const BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';

let scenario: MessagingScenario;
let system: System;
let key: string;
let hooks: Hook[];
let create: MessagingScenario['create'];

beforeAll(async () => {
  scenario = await startMessagingScenario('links-e2e', ['link.clicked']);
  ({ system, key, create } = scenario);
  hooks = scenario.receiver.hooks;
}, 120000);

afterAll(async () => {
  await scenario?.stop();
});

async function message(id: string): Promise<Message> {
  const answer = await system.call<{ data: Message }>('GET', `/api/v1/messages/${id}`, { key });
  expect(answer.status).toBe(200);
  return answer.body.data;
}

/** Opens `/l/<token>` as a phone's browser would, without following the redirect. */
function open(method: 'GET' | 'HEAD', token: string): Promise<Answer<unknown>> {
  return system.call(method, `/l/${token}`, { headers: { 'user-agent': BROWSER } });
}

describe('a tracked link', () => {
  it('is sent rewritten, redirects to the original URL, sends link.clicked once and counts every click', async () => {
    await create('/api/v1/channels', { type: 'sms', name: 'Sandbox SMS', provider: 'sandbox' });
    const template = await create('/api/v1/templates', {
      name: 'order',
      channel: 'sms',
      body: `Hi {{ contact.name }}, your order: ${ORIGINAL}.`,
    });
    const contact = await system.call<{ data: { id: number } }>('POST', '/api/v1/contacts/upsert', {
      key,
      body: { phone: '+14155550000', name: 'Ada' },
    });
    expect(contact.status).toBe(201);
    const contactId = contact.body.data.id;
    const sent = await system.call<{ data: Message }>('POST', '/api/v1/messages', {
      key,
      body: { contact_id: contactId, route: [{ channel: 'sms', template_id: template }] },
    });
    expect(sent.status).toBe(202);
    const id = sent.body.data.id;

    const delivered = await eventually('the message delivered', async () => {
      const found = await message(id);
      return found.status === 'delivered' ? found : undefined;
    });
    // The body as the contact received it: the link replaced under PUBLIC_BASE_URL (its default here).
    const token = /^Hi Ada, your order: http:\/\/127\.0\.0\.1:3000\/l\/([A-Za-z0-9_-]{22})\.$/.exec(
      delivered.body ?? '',
    )?.[1];
    expect([delivered.body, token]).toEqual([delivered.body, expect.any(String)]);
    expect(delivered.links).toEqual([
      expect.objectContaining({ url: ORIGINAL, link_index: 0, clicks: 0, bot_clicks: 0 }),
    ]);

    // A person's click comes after the two seconds in which only scanners open links.
    const wait = new Date(delivered.sent_at!).getTime() + 2_100 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const first = await open('GET', token!);
    expect([first.status, first.headers.get('location')]).toEqual([302, ORIGINAL]);
    const head = await open('HEAD', token!);
    expect([head.status, head.headers.get('location')]).toEqual([302, ORIGINAL]);
    expect((await open('GET', token!)).status).toBe(302);
    expect((await open('GET', 'AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);

    const hook = await eventually(
      'link.clicked at the endpoint',
      async () => hooks.find((found) => found.type === 'link.clicked' && found.data['message_id'] === id),
      20_000,
    );
    expect(hook.data).toMatchObject({
      message_id: id,
      url: ORIGINAL,
      link_index: 0,
      channel: 'sms',
      workflow: null,
      campaign_id: null,
      user_agent: BROWSER,
      contact: { id: contactId, name: 'Ada', phone: '+14155550000' },
    });
    const counted = await eventually('both clicks counted', async () => {
      const found = await message(id);
      return found.links[0]?.clicks === 2 ? found : undefined;
    });
    expect(counted.links).toEqual([
      expect.objectContaining({ url: ORIGINAL, link_index: 0, clicks: 2, bot_clicks: 0 }),
    ]);
    // Given a moment for a second link.clicked that must not come.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(
      hooks.filter((found) => found.type === 'link.clicked' && found.data['message_id'] === id),
    ).toHaveLength(1);
  });
});
