import { randomBytes } from 'node:crypto';

import type { ChannelEntity } from '../channels/channel.entity';
import type { ContactEntity } from '../contacts/contact.entity';
import type { MessageEntity } from '../messages/message.entity';
import { planSends, settleProviderSend } from '../sending/send-plan';
import type { ClaimedJob, SendBatchRows } from '../sending/send-queue.repository';
import type { TemplateEntity } from '../templates/template.entity';
import { linkToken, type LinkTracking } from './link-rewriting';

const NOW = Date.parse('2026-01-01T00:00:00.000Z');
const ID = 'msg_0123456789abcdef0123456789abcdef';
const tracking: LinkTracking = {
  baseUrl: 'https://go.example.test',
  secretsKey: randomBytes(32).toString('base64'),
};
const TRACKED = `https://go.example.test/l/${linkToken(tracking.secretsKey, ID, 0)}`;

const job: ClaimedJob = {
  messageId: ID,
  workspaceId: 1,
  state: 'pending',
  attempts: 0,
  firstAttemptAt: new Date(NOW),
  lease: 'lease',
};

function rows(options: { provider?: string; body?: string; trackLinks?: boolean } = {}): SendBatchRows {
  const message = {
    id: ID,
    workspaceId: 1,
    status: 'queued',
    channelType: 'sms',
    channelId: 3,
    templateId: 4,
    contactId: 7,
    route: {
      steps: [{ channel_id: 3, channel: 'sms', template_id: 4, wait_for: null, timeout_ms: null }],
      step: 0,
      variables: {},
      purpose: 'transactional',
    },
  } as unknown as MessageEntity;
  const channel = {
    id: 3,
    type: 'sms',
    provider: options.provider ?? 'sandbox',
    status: 'active',
  } as ChannelEntity;
  const template = {
    id: 4,
    channel: 'sms',
    body: options.body ?? 'Hi {{ contact.name }}, pay at https://pay.example.com/x?a=1.',
    subject: null,
    html: null,
    providerTemplate: null,
    trackLinks: options.trackLinks ?? true,
  } as unknown as TemplateEntity;
  const contact = {
    id: 7,
    workspaceId: 1,
    name: 'Ada',
    phone: '+15550000',
    email: null,
    externalId: null,
    data: {},
    marketingConsent: {},
    channels: {},
  } as unknown as ContactEntity;
  return {
    messages: new Map([[ID, message]]),
    channels: new Map([[3, channel]]),
    templates: new Map([[4, template]]),
    contacts: new Map([[7, contact]]),
    pushSubscriptions: new Map(),
  };
}

describe('tracked links at send time', () => {
  it('sends a sandbox message with its links tracked, and records the original URLs with the attempt', () => {
    const plan = planSends([job], rows(), new Set(), NOW, tracking);
    expect(plan.finishes[0]!.attempt).toMatchObject({
      outcome: 'sent',
      body: `Hi Ada, pay at ${TRACKED}.`,
      links: [{ url: 'https://pay.example.com/x?a=1' }],
    });
  });

  it('gives a real provider the tracked body, and its answer records the links', () => {
    const plan = planSends([job], rows({ provider: 'twilio' }), new Set(), NOW, tracking);
    const send = plan.providerSends[0]!;
    expect(send.message.body).toBe(`Hi Ada, pay at ${TRACKED}.`);
    const settled = settleProviderSend(send, { outcome: 'sent', providerMessageId: 'SM1' }, NOW);
    expect('finish' in settled && settled.finish.attempt).toMatchObject({
      body: `Hi Ada, pay at ${TRACKED}.`,
      links: [{ url: 'https://pay.example.com/x?a=1' }],
    });
  });

  it('leaves the body as rendered, without links, when the template does not track them or has no URL', () => {
    for (const options of [{ trackLinks: false }, { body: 'Hi {{ contact.name }}' }]) {
      const attempt = planSends([job], rows(options), new Set(), NOW, tracking).finishes[0]!.attempt;
      expect(attempt.body).toBe(
        options.trackLinks === false ? 'Hi Ada, pay at https://pay.example.com/x?a=1.' : 'Hi Ada',
      );
      expect(attempt).not.toHaveProperty('links');
    }
  });
});
