import { eventually } from '@cms/testing';

import { FakeTwilio, TWILIO_ERRORS, twilioErrorReply } from './fakes';
import { MessagesFixture } from './support/messages.fixture';
import { MessagingHarness } from './support/messaging.harness';

describe('messages: sending through a real provider (Twilio fake)', () => {
  let twilio: FakeTwilio;
  let harness: MessagingHarness;
  let fixture: MessagesFixture;

  beforeAll(async () => {
    twilio = new FakeTwilio();
    await twilio.server.start();
    twilio.addAccount('AC1', 'good-token');
    harness = await MessagingHarness.start({
      PROVIDER_BASE_URLS: `twilio=${twilio.server.baseUrl}`,
      SEND_WORKER_POLL_MS: '20',
    });
    fixture = new MessagesFixture(harness);
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
    await twilio?.server.close();
  });

  async function twilioWorkspace(authToken = 'good-token') {
    const workspaceId = harness.workspace();
    const channel = await fixture.channel(workspaceId, 'sms', {
      provider: 'twilio',
      credentialsSealed: harness.seal({ account_sid: 'AC1', auth_token: authToken, from: '+15557770000' }),
    });
    const template = await fixture.template(workspaceId, 'sms', 'Note {{ vars.n }}');
    return { workspaceId, channel, template };
  }

  function sentTo(body: string): number {
    return twilio.sentMessages().filter((form) => form.get('Body') === body).length;
  }

  it('sends once and records the provider id', async () => {
    const { workspaceId, template } = await twilioWorkspace();
    const contactId = harness.id();
    await harness.contacts(workspaceId, { id: contactId, name: 'T', phone: '+15551230001' });
    const id = await fixture.sent(workspaceId, {
      contact_id: contactId,
      route: [{ channel: 'sms', template_id: template }],
      variables: { n: 'once' },
    });
    const sent = await fixture.untilStatus(workspaceId, id, 'sent');
    expect(sent.history.at(-1)).toMatchObject({ status: 'sent', source: 'provider' });
    const [row]: Array<{ provider_message_id: string }> = await harness.kit.db.query(
      'SELECT provider_message_id FROM messages WHERE id = $1',
      [id],
    );
    expect(row!.provider_message_id).toMatch(/^SM[0-9a-f]{32}$/);
    expect(sentTo('Note once')).toBe(1);
  });

  it('marks the channel failing when the provider refuses its credentials, and fails the message', async () => {
    const { workspaceId, channel, template } = await twilioWorkspace('wrong-token');
    const contactId = harness.id();
    await harness.contacts(workspaceId, { id: contactId, name: 'T', phone: '+15551230002' });
    const id = await fixture.sent(workspaceId, {
      contact_id: contactId,
      route: [{ channel: 'sms', template_id: template }],
      variables: { n: 'refused' },
    });
    const failed = await fixture.untilStatus(workspaceId, id, 'failed');
    expect(failed.failure).toMatchObject({ code: 'channel_misconfigured', provider_code: '20003' });
    const [row]: Array<{ status: string }> = await harness.kit.db.query(
      'SELECT status FROM channels WHERE id = $1',
      [channel],
    );
    expect(row!.status).toBe('failing');
  });

  it('keeps a rate-limited message queued for a later attempt', async () => {
    const { workspaceId, template } = await twilioWorkspace();
    const contactId = harness.id();
    await harness.contacts(workspaceId, { id: contactId, name: 'T', phone: '+15551230003' });
    twilio.server.failNext(1, twilioErrorReply(TWILIO_ERRORS.tooManyRequests, { 'Retry-After': '120' }));
    const id = await fixture.sent(workspaceId, {
      contact_id: contactId,
      route: [{ channel: 'sms', template_id: template }],
      variables: { n: 'limited' },
    });
    const job = await eventually('the job rescheduled', async () => {
      const rows: Array<{ attempts: number; state: string; wait_s: number; last_error: string }> =
        await harness.kit.db.query(
          `SELECT attempts, state, EXTRACT(EPOCH FROM due_at - now())::float8 AS wait_s, last_error
             FROM messaging_send_jobs WHERE message_id = $1`,
          [id],
        );
      return rows[0]?.attempts === 1 ? rows[0] : undefined;
    });
    expect(job.state).toBe('pending');
    expect(job.wait_s).toBeGreaterThan(100);
    expect(job.last_error).toMatch(/^rate_limited/);
    expect((await fixture.message(workspaceId, id)).status).toBe('queued');
  });

  it('never asks the provider again for a message whose worker died while asking it', async () => {
    const { workspaceId, template } = await twilioWorkspace();
    const contactId = harness.id();
    await harness.contacts(workspaceId, { id: contactId, name: 'T', phone: '+15551230004' });
    // The worker is slow to be answered: the job is `sending` when its lease is made to run out.
    twilio.server.failNext(1, { status: 201, body: { sid: 'SMlate' }, delayMs: 1500 });
    const id = await fixture.sent(workspaceId, {
      contact_id: contactId,
      route: [{ channel: 'sms', template_id: template }],
      variables: { n: 'interrupted' },
    });
    await eventually('the job being sent', async () => {
      // An UPDATE answers [rows, count].
      const [, count] = (await harness.kit.db.query(
        `UPDATE messaging_send_jobs SET leased_until = now() - interval '1 second'
          WHERE message_id = $1 AND state = 'sending'`,
        [id],
      )) as [unknown[], number];
      return count === 1 || undefined;
    });
    const failed = await fixture.untilStatus(workspaceId, id, 'failed');
    expect(failed.failure?.code).toBe('provider_error');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(
      twilio.server.requests.filter((request) => request.body.toString().includes('interrupted')),
    ).toHaveLength(1);
    expect(
      (await fixture.message(workspaceId, id)).history.filter((entry) => !entry.ignored).map((e) => e.status),
    ).toEqual(['queued', 'failed']);
  });
});
