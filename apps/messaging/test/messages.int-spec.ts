import { CONTACT_REQUEST_TYPES, MESSAGING_REQUEST_TYPES } from '@cms/contracts';
import { eventually } from '@cms/testing';

import { MessagesFixture, requestRecord, sleep } from './support/messages.fixture';
import { MessagingHarness } from './support/messaging.harness';

const DELAY_MS = 60;

describe('messages: the lifecycle of a sandbox message', () => {
  let harness: MessagingHarness;
  let fixture: MessagesFixture;

  beforeAll(async () => {
    harness = await MessagingHarness.start({
      SANDBOX_STATUS_DELAY_MS: String(DELAY_MS),
      SEND_WORKER_POLL_MS: '20',
    });
    fixture = new MessagesFixture(harness);
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  /** A workspace with a default sandbox channel and a template of each type, and a contact. */
  async function workspaceWith(contact: Parameters<MessagingHarness['contacts']>[1]) {
    const workspaceId = harness.workspace();
    const sms = await fixture.channel(workspaceId, 'sms');
    const email = await fixture.channel(workspaceId, 'email');
    const smsTemplate = await fixture.template(
      workspaceId,
      'sms',
      'Hi {{ contact.name }}, code {{ vars.code | default: "none" }}',
    );
    const emailTemplate = await fixture.template(workspaceId, 'email', 'Hello {{ contact.name }}');
    await harness.contacts(workspaceId, contact);
    return { workspaceId, sms, email, smsTemplate, emailTemplate };
  }

  it('refuses a route naming what the workspace does not have, with a pointer for each step', async () => {
    const { workspaceId, sms, smsTemplate, emailTemplate } = await workspaceWith({
      id: harness.id(),
      name: 'A',
    });
    const outcome = await fixture.send(workspaceId, {
      contact_id: 1,
      route: [
        { channel_id: 999_999, template_id: smsTemplate },
        { channel: 'telegram', template_id: smsTemplate },
        { channel_id: sms, template_id: emailTemplate },
        { channel: 'sms', template_id: 888_888 },
      ],
    });
    expect(outcome.data.status).toBe(422);
    const pointers = (outcome.data as { errors: Array<{ source?: { pointer: string } }> }).errors.map(
      (error) => error.source?.pointer,
    );
    expect(pointers).toEqual([
      '/data/attributes/route/0/channel_id',
      '/data/attributes/route/1/channel',
      '/data/attributes/route/2/template_id',
      '/data/attributes/route/3/template_id',
    ]);
  });

  it('answers 202 with the queued message, and 200 with the original for a repeated Idempotency-Key', async () => {
    const contactId = harness.id();
    const { workspaceId, smsTemplate } = await workspaceWith({
      id: contactId,
      name: 'Ada',
      phone: '+15550000',
    });
    const body = {
      contact_id: contactId,
      route: [{ channel: 'sms', template_id: smsTemplate }],
      idempotency_key: 'k1',
    };
    const first = await fixture.send(workspaceId, body);
    expect(first.data.status).toBe(202);
    const resource = (first.data as { resource: Record<string, unknown> }).resource;
    expect(resource).toMatchObject({
      direction: 'outbound',
      status: 'queued',
      channel: 'sms',
      contact_id: contactId,
      workflow: null,
      campaign_id: null,
      fallback_from: null,
      links: [],
    });
    expect(resource['id']).toMatch(/^msg_[0-9a-f]{32}$/);
    const again = await fixture.send(workspaceId, body);
    expect(again.data.status).toBe(200);
    expect((again.data as { resource?: { id: string } }).resource?.id).toBe(resource['id']);
  });

  it('takes a reader through sent, delivered and read, each fact once and in order', async () => {
    const contactId = harness.id();
    const { workspaceId, smsTemplate } = await workspaceWith({
      id: contactId,
      name: 'Ada',
      phone: '+15550005',
    });
    const id = await fixture.sent(workspaceId, {
      contact_id: contactId,
      route: [{ channel: 'sms', template_id: smsTemplate }],
      variables: { code: '42' },
    });
    const read = await fixture.untilStatus(workspaceId, id, 'read');
    expect(read).toMatchObject({ recipient: '+15550005', body: 'Hi Ada, code 42', failure: null });
    expect(read.sent_at! <= read.delivered_at! && read.delivered_at! <= read.read_at!).toBe(true);
    expect(read.history.map((entry) => entry.status)).toEqual(['queued', 'sent', 'delivered', 'read']);
    await eventually('the read fact', async () => fixture.factsAbout(id).length >= 4 || undefined);
    const facts = fixture.factsAbout(id);
    expect(facts.map((fact) => fact.type)).toEqual([
      'message.queued',
      'message.sent',
      'message.delivered',
      'message.read',
    ]);
    expect(facts[3]!.data).toMatchObject({
      status: 'read',
      contact: { id: contactId, name: 'Ada', phone: '+15550005', email: null, external_id: null },
    });
  });

  it('leaves a silent recipient sent, keeps a late receipt in history only and a repeated one not at all', async () => {
    const contactId = harness.id();
    const { workspaceId, smsTemplate } = await workspaceWith({
      id: contactId,
      name: 'S',
      phone: '+15550009',
    });
    const id = await fixture.sent(workspaceId, {
      contact_id: contactId,
      route: [{ channel: 'sms', template_id: smsTemplate }],
    });
    await fixture.untilStatus(workspaceId, id, 'sent');
    await sleep(DELAY_MS * 5);
    expect((await fixture.message(workspaceId, id)).status).toBe('sent');

    const at = new Date().toISOString();
    const read = harness.kit.envelope(MESSAGING_REQUEST_TYPES.messageReceipt, workspaceId, {
      message_id: id,
      status: 'read',
      at,
      source: 'provider',
    });
    // The same record twice (as a relay publishes it again after a crash): decided once.
    await harness.kit.produce(
      read,
      read,
      harness.kit.envelope(MESSAGING_REQUEST_TYPES.messageReceipt, workspaceId, {
        message_id: id,
        status: 'delivered',
        at,
        source: 'provider',
      }),
    );
    const late = await fixture.until(
      workspaceId,
      id,
      'has the late receipt',
      (message) => message.history.length === 4,
    );
    expect(late.status).toBe('read');
    expect(late.history.slice(2)).toEqual([
      { status: 'read', at, source: 'provider' },
      { status: 'delivered', at, source: 'provider', ignored: true },
    ]);
    expect(late.delivered_at).toBeNull();
    // The read fact on its way, then a moment for one the late or the repeated receipt must not make.
    await eventually('the read fact', async () => fixture.factsAbout(id).length >= 3 || undefined);
    await sleep(300);
    expect(fixture.factsAbout(id).map((fact) => fact.type)).toEqual([
      'message.queued',
      'message.sent',
      'message.read',
    ]);
  });

  it('fails an invalid recipient and falls back to the next step, which names the message it replaces', async () => {
    const contactId = harness.id();
    const { workspaceId, smsTemplate, emailTemplate } = await workspaceWith({
      id: contactId,
      name: 'F',
      phone: '+15550001',
      email: 'f@example.com',
    });
    const id = await fixture.sent(workspaceId, {
      contact_id: contactId,
      route: [
        { channel: 'sms', template_id: smsTemplate },
        { channel: 'email', template_id: emailTemplate },
      ],
    });
    const failed = await fixture.untilStatus(workspaceId, id, 'failed');
    expect(failed.failure).toMatchObject({ code: 'invalid_recipient', provider_code: null });
    expect(failed.failure!.reason).toEqual(expect.any(String));
    expect(failed.failed_at).not.toBeNull();
    const next = await fixture.replacement(workspaceId, id);
    expect(next).toMatchObject({ channel: 'email', fallback_from: id });
    const delivered = await fixture.untilStatus(workspaceId, next.id, 'delivered');
    expect(delivered).toMatchObject({ recipient: 'f@example.com', body: 'Hello F' });
  });

  it("makes a workflow step's message: `workflow` on it, its fallback and every fact; its templates see the events", async () => {
    const contactId = harness.id();
    const { workspaceId, emailTemplate } = await workspaceWith({
      id: contactId,
      name: 'W',
      phone: '+15550005',
      email: 'w@example.com',
    });
    const smsTemplate = await fixture.template(
      workspaceId,
      'sms',
      'Order {{ event.data.order }} ({{ event.name }}), paid {{ waited_event.data.total }}, code {{ vars.code }}',
    );
    const workflow = { id: 7, name: 'Welcome', run_id: 41, step: 'hello' };
    const id = await fixture.sent(workspaceId, {
      contact_id: contactId,
      route: [{ channel: 'sms', template_id: smsTemplate }],
      variables: { code: 'X1' },
      workflow,
      event: { id: 3, name: 'order_placed', data: { order: 'A-9' } },
      waited_event: { name: 'order_paid', data: { total: 12 } },
    });
    const read = await fixture.untilStatus(workspaceId, id, 'read');
    expect(read).toMatchObject({ workflow, body: 'Order A-9 (order_placed), paid 12, code X1' });
    await eventually('the read fact', async () => fixture.factsAbout(id).length >= 4 || undefined);
    expect(fixture.factsAbout(id).map((fact) => fact.data['workflow'])).toEqual([
      workflow,
      workflow,
      workflow,
      workflow,
    ]);

    // A fallback message is the same step's: it carries the workflow too (this contact's number fails).
    const invalidId = harness.id();
    await harness.contacts(workspaceId, {
      id: invalidId,
      name: 'V',
      phone: '+15550001',
      email: 'v@example.com',
    });
    const failing = await fixture.sent(workspaceId, {
      contact_id: invalidId,
      route: [
        { channel: 'sms', template_id: smsTemplate },
        { channel: 'email', template_id: emailTemplate },
      ],
      variables: { code: 'X2' },
      workflow,
      event: { id: 3, name: 'order_placed', data: { order: 'A-9' } },
      waited_event: { name: 'order_paid', data: { total: 12 } },
    });
    const failed = await fixture.untilStatus(workspaceId, failing, 'failed');
    expect(failed).toMatchObject({ workflow, failure: { code: 'invalid_recipient' } });
    const next = await fixture.replacement(workspaceId, failing);
    expect(next).toMatchObject({ channel: 'email', fallback_from: failing, workflow });
  });

  it("makes a notification send's message: `campaign_id` and `test` on it, its fallback and their facts", async () => {
    const contactId = harness.id();
    // This contact's number fails: the route moves on to email.
    const { workspaceId, smsTemplate, emailTemplate } = await workspaceWith({
      id: contactId,
      name: 'T',
      phone: '+15550001',
      email: 't@example.com',
    });
    const plainContactId = harness.id();
    await harness.contacts(workspaceId, { id: plainContactId, name: 'P', phone: '+15550006' });
    // As the broadcasts service appends them (no Idempotency-Key), in one batch: likely one chunk.
    const testSend = harness.kit.envelope(MESSAGING_REQUEST_TYPES.messageSend, workspaceId, {
      contact_id: contactId,
      route: [
        { channel: 'sms', template_id: smsTemplate },
        { channel: 'email', template_id: emailTemplate },
      ],
      variables: { code: 'T1' },
      purpose: 'transactional',
      campaign_id: 42,
      test: true,
    });
    const plainSend = harness.kit.envelope(MESSAGING_REQUEST_TYPES.messageSend, workspaceId, {
      contact_id: plainContactId,
      route: [{ channel: 'sms', template_id: smsTemplate }],
    });
    await harness.kit.produce(testSend, plainSend);
    const [made, plainMade] = await Promise.all([
      harness.kit.outcomeOf(testSend),
      harness.kit.outcomeOf(plainSend),
    ]);
    const resourceOf = (outcome: typeof made) => {
      expect(outcome.data.status).toBe(202);
      return (outcome.data as { resource: Record<string, unknown> }).resource;
    };
    expect(resourceOf(made)).toMatchObject({ campaign_id: 42, test: true });
    const id = String(resourceOf(made)['id']);
    const plainId = String(resourceOf(plainMade)['id']);

    const failed = await fixture.untilStatus(workspaceId, id, 'failed');
    expect(failed).toMatchObject({ campaign_id: 42, test: true, workflow: null });
    const next = await fixture.replacement(workspaceId, id);
    expect(next).toMatchObject({ channel: 'email', fallback_from: id, campaign_id: 42, test: true });
    const queuedFact = (message: string) =>
      eventually(`the queued fact of ${message}`, async () => fixture.factsAbout(message)[0]);
    for (const message of [id, next.id]) {
      expect(await queuedFact(message)).toMatchObject({
        type: 'message.queued',
        data: { id: message, campaign_id: 42, test: true },
      });
    }
    const { body } = await harness.get<{ data: Array<{ id: string }> }>(
      'messages?filter[campaign_id]=42',
      workspaceId,
    );
    expect(body.data.map((message) => message.id).sort()).toEqual([id, next.id].sort());

    // Any other message is no test send's.
    expect(await fixture.message(workspaceId, plainId)).toMatchObject({ campaign_id: null, test: false });
    expect(await queuedFact(plainId)).toMatchObject({
      type: 'message.queued',
      data: { campaign_id: null, test: false },
    });
  });

  it("makes a bot's text message: no template, the text as written, `bot` on it and its facts; null on others", async () => {
    const contactId = harness.id();
    const { workspaceId, sms, smsTemplate } = await workspaceWith({
      id: contactId,
      name: 'B',
      phone: '+15550006',
    });
    const bot = { id: 3, name: 'Concierge', conversation_id: 17 };
    // Liquid in a text is no template: it goes out as written.
    const text = 'Thanks {{ contact.name }}!\nYour table is booked: https://example.com/b/42';
    // As the automations service appends a bot's answer, beside an API send, in one batch.
    const botSend = harness.kit.envelope(MESSAGING_REQUEST_TYPES.messageSend, workspaceId, {
      contact_id: contactId,
      route: [{ channel_id: sms }],
      purpose: 'transactional',
      variables: {},
      text,
      bot,
    });
    const plainSend = harness.kit.envelope(MESSAGING_REQUEST_TYPES.messageSend, workspaceId, {
      contact_id: contactId,
      route: [{ channel: 'sms', template_id: smsTemplate }],
    });
    await harness.kit.produce(botSend, plainSend);
    const [made, plainMade] = await Promise.all([
      harness.kit.outcomeOf(botSend),
      harness.kit.outcomeOf(plainSend),
    ]);
    expect(made.data).toMatchObject({
      status: 202,
      resource: { status: 'queued', template: null, bot, workflow: null, purpose: 'transactional' },
    });
    const idOf = (outcome: typeof made) =>
      String((outcome.data as { resource?: { id: string } }).resource?.id);
    const id = idOf(made);
    const plainId = idOf(plainMade);

    const delivered = await fixture.untilStatus(workspaceId, id, 'delivered');
    expect(delivered).toMatchObject({
      channel: 'sms',
      channel_id: sms,
      recipient: '+15550006',
      template: null,
      body: text,
      bot,
      workflow: null,
      campaign_id: null,
      links: [],
    });
    expect(delivered.history.map((entry) => entry.status)).toEqual(['queued', 'sent', 'delivered']);
    await eventually('the delivered fact', async () => fixture.factsAbout(id).length >= 3 || undefined);
    const facts = fixture.factsAbout(id);
    expect(facts.map((fact) => [fact.type, fact.data['bot']])).toEqual([
      ['message.queued', bot],
      ['message.sent', bot],
      ['message.delivered', bot],
    ]);
    expect(facts[1]!.data).toMatchObject({ status: 'sent', template: null, body: text, workflow: null });
    const { body } = await harness.get<{ data: Array<{ id: string; bot: unknown }> }>(
      `messages?filter[contact_id]=${contactId}`,
      workspaceId,
    );
    expect(body.data.find((message) => message.id === id)?.bot).toEqual(bot);

    // Every other message answers `bot: null`, and so do its facts.
    await fixture.untilStatus(workspaceId, plainId, 'delivered');
    expect(await fixture.message(workspaceId, plainId)).toMatchObject({
      bot: null,
      template: expect.any(String),
    });
    expect(fixture.factsAbout(plainId).map((fact) => fact.data['bot'])).toEqual(
      fixture.factsAbout(plainId).map(() => null),
    );
  });

  it('records an opt-out as a failure and puts the address on the suppression list', async () => {
    const contactId = harness.id();
    const { workspaceId, smsTemplate } = await workspaceWith({
      id: contactId,
      name: 'O',
      phone: '+15550004',
    });
    const id = await fixture.sent(workspaceId, {
      contact_id: contactId,
      route: [{ channel: 'sms', template_id: smsTemplate }],
    });
    const failed = await fixture.untilStatus(workspaceId, id, 'failed');
    expect(failed.failure?.code).toBe('opted_out');
    const rows: Array<Record<string, unknown>> = await harness.kit.db.query(
      'SELECT channel, address, reason, source FROM suppressions WHERE workspace_id = $1',
      [workspaceId],
    );
    expect(rows).toEqual([{ channel: 'sms', address: '+15550004', reason: 'opted_out', source: 'provider' }]);
    const revocation = await requestRecord(
      harness,
      CONTACT_REQUEST_TYPES.consentChange,
      (data) => data['contact_id'] === contactId,
    );
    expect(revocation.data).toMatchObject({ channel: 'sms', granted: false, source: 'provider' });
    const again = await fixture.sent(workspaceId, {
      contact_id: contactId,
      route: [{ channel: 'sms', template_id: smsTemplate }],
    });
    const suppressed = await fixture.untilStatus(workspaceId, again, 'suppressed');
    expect(suppressed.suppression?.reason).toBe('suppressed_address');
  });

  it('suppresses a contact without the address, and falls back on no_recipient', async () => {
    const contactId = harness.id();
    const { workspaceId, smsTemplate, emailTemplate } = await workspaceWith({
      id: contactId,
      name: 'N',
      email: 'n@example.com',
    });
    const id = await fixture.sent(workspaceId, {
      contact_id: contactId,
      route: [
        { channel: 'sms', template_id: smsTemplate },
        { channel: 'email', template_id: emailTemplate },
      ],
    });
    const suppressed = await fixture.untilStatus(workspaceId, id, 'suppressed');
    expect(suppressed.suppression?.reason).toBe('no_recipient');
    const next = await fixture.replacement(workspaceId, id);
    await fixture.untilStatus(workspaceId, next.id, 'delivered');
    expect(fixture.factsAbout(id).map((fact) => fact.type)).toEqual(['message.queued', 'message.suppressed']);
  });

  it('suppresses a marketing message without consent, and one whose template misses a variable', async () => {
    const contactId = harness.id();
    const { workspaceId, sms } = await workspaceWith({ id: contactId, name: 'M', phone: '+15550123' });
    const plain = await fixture.template(workspaceId, 'sms', 'Offer');
    const strict = await fixture.template(workspaceId, 'sms', 'Your code {{ vars.code }}');
    const marketing = await fixture.sent(workspaceId, {
      contact_id: contactId,
      route: [{ channel_id: sms, template_id: plain }],
      purpose: 'marketing',
    });
    expect((await fixture.untilStatus(workspaceId, marketing, 'suppressed')).suppression?.reason).toBe(
      'no_consent',
    );
    const unrendered = await fixture.sent(workspaceId, {
      contact_id: contactId,
      route: [{ channel_id: sms, template_id: strict }],
    });
    const suppressed = await fixture.untilStatus(workspaceId, unrendered, 'suppressed');
    expect(suppressed.suppression).toMatchObject({
      reason: 'render_error',
      detail: expect.stringContaining('vars.code'),
    });
    expect(suppressed.body).toBeNull();
  });

  it('fails a message through a disabled channel with channel_disabled', async () => {
    const contactId = harness.id();
    const { workspaceId, smsTemplate } = await workspaceWith({
      id: contactId,
      name: 'D',
      phone: '+15550777',
    });
    const disabled = await fixture.channel(workspaceId, 'sms', { status: 'disabled', isDefault: false });
    const id = await fixture.sent(workspaceId, {
      contact_id: contactId,
      route: [{ channel_id: disabled, template_id: smsTemplate }],
    });
    const failed = await fixture.untilStatus(workspaceId, id, 'failed');
    expect(failed.failure?.code).toBe('channel_disabled');
  });

  it('moves the route on when the status a step waits for does not come in time', async () => {
    const contactId = harness.id();
    const { workspaceId, smsTemplate, emailTemplate } = await workspaceWith({
      id: contactId,
      name: 'W',
      phone: '+15550009',
      email: 'w@example.com',
    });
    const id = await fixture.sent(workspaceId, {
      contact_id: contactId,
      route: [
        { channel: 'sms', template_id: smsTemplate, wait_for: 'delivered', timeout: 'PT30S' },
        { channel: 'email', template_id: emailTemplate },
      ],
    });
    await fixture.untilStatus(workspaceId, id, 'sent');
    const [timer]: Array<{ due_at: Date; created: Date }> = await harness.kit.db.query(
      `SELECT due_at, (SELECT created_at FROM messages WHERE id = $1) AS created FROM messaging_timers
        WHERE message_id = $1 AND kind = 'timeout'`,
      [id],
    );
    expect(new Date(timer!.due_at).getTime() - new Date(timer!.created).getTime()).toBe(30_000);
    // The thirty seconds pass.
    await harness.kit.db.query(`UPDATE messaging_timers SET due_at = now() WHERE message_id = $1`, [id]);
    const next = await fixture.replacement(workspaceId, id);
    expect(next).toMatchObject({ channel: 'email', fallback_from: id });
    expect((await fixture.message(workspaceId, id)).status).toBe('sent');
  });

  it('records a sandbox inbound message from a known sender, and refuses one for another provider', async () => {
    const contactId = harness.id();
    const { workspaceId, sms } = await workspaceWith({ id: contactId, name: 'I', phone: '+15550333' });
    const outcome = await harness.request(workspaceId, MESSAGING_REQUEST_TYPES.sandboxInbound, {
      channel_id: sms,
      from: '+15550333',
      text: 'hello',
    });
    expect(outcome.data.status).toBe(202);
    expect((outcome.data as { resource: Record<string, unknown> }).resource).toMatchObject({
      direction: 'inbound',
      status: 'received',
      recipient: '+15550333',
      body: 'hello',
      contact_id: contactId,
    });
    const twilio = await fixture.channel(workspaceId, 'sms', { provider: 'twilio', isDefault: false });
    const refused = await harness.request(workspaceId, MESSAGING_REQUEST_TYPES.sandboxInbound, {
      channel_id: twilio,
      from: '+15550333',
      text: 'hello',
    });
    expect(refused.data.status).toBe(404);
    const { body } = await harness.get<{ data: Array<{ direction: string }>; meta: { total: number } }>(
      'messages?filter[direction]=inbound',
      workspaceId,
    );
    expect(body.meta.total).toBe(1);
    expect((await harness.get('messages/msg_nope', workspaceId)).status).toBe(404);
  });
});
