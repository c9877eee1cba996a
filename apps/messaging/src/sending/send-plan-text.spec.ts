import type { ChannelType } from '@cms/contracts';

import type { ChannelEntity, PushSubscriptionEntity } from '../channels/channel.entity';
import type { ContactEntity } from '../contacts/contact.entity';
import type { LinkTracking } from '../links/link-rewriting';
import type { MessageEntity } from '../messages/message.entity';
import type { ProviderName } from '../providers/provider';
import { asWritten, DEFAULT_TEXT_SUBJECT, TEXT_SUBJECT_LENGTH } from './recipient-rules';
import { planSends } from './send-plan';
import type { ClaimedJob, SendBatchRows } from './send-queue.repository';
import { suppressionKey } from './send-queue.repository';

/*
 * A bot's text (extensions §12, What bots send): a message with no template whose route carries the
 * text, sent exactly as written on its channel by every provider's adapter.
 */

const NOW = Date.parse('2026-01-01T00:00:00.000Z');
const TEXT = 'Thanks {{ contact.name }}! Your table is booked: https://example.com/b/42\nSee you at 8.';
const TRACKING: LinkTracking = {
  baseUrl: 'https://cms.example',
  secretsKey: Buffer.alloc(32, 7).toString('base64'),
};

const JOB: ClaimedJob = {
  messageId: 'msg_1',
  workspaceId: 1,
  state: 'pending',
  attempts: 0,
  firstAttemptAt: new Date(NOW),
  lease: 'lease',
};

/** Where each channel type reaches the contact below. */
const RECIPIENTS: Record<ChannelType, string> = {
  sms: '+15550005',
  whatsapp: '+15550005',
  rcs: '+15550005',
  email: 'ada@example.com',
  telegram: '5550005',
  messenger: 'PSID5',
  instagram: 'IGSID5',
  browser_push: 'ps_0123456789abcdef01234567',
};

const CONTACT: ContactEntity = {
  id: 7,
  workspaceId: 1,
  name: 'Ada',
  phone: RECIPIENTS.sms,
  email: RECIPIENTS.email,
  externalId: null,
  data: {},
  marketingConsent: {
    whatsapp: null,
    sms: null,
    email: null,
    rcs: null,
    telegram: null,
    messenger: null,
    instagram: null,
    browser_push: null,
  },
  channels: {
    telegram: RECIPIENTS.telegram,
    messenger: RECIPIENTS.messenger,
    instagram: RECIPIENTS.instagram,
    browser_push: RECIPIENTS.browser_push,
  },
  updatedAt: new Date(NOW),
};

const SUBSCRIPTION = {
  subscriberId: RECIPIENTS.browser_push,
  endpoint: 'https://push.example/sub/1',
  p256dh: 'key',
  auth: 'auth',
} as PushSubscriptionEntity;

function textRows(
  type: ChannelType,
  provider: ProviderName,
  options: { text?: string; purpose?: 'marketing' } = {},
): SendBatchRows {
  const message: Partial<MessageEntity> = {
    id: 'msg_1',
    workspaceId: 1,
    direction: 'outbound',
    status: 'queued',
    channelType: type,
    channelId: 3,
    templateId: null,
    contactId: 7,
    recipient: null,
    body: null,
    subject: null,
    html: null,
    route: {
      steps: [{ channel_id: 3, channel: type, template_id: null, wait_for: null, timeout_ms: null }],
      step: 0,
      variables: {},
      purpose: options.purpose ?? 'transactional',
      text: options.text ?? TEXT,
    },
  };
  const channel = { id: 3, type, provider, status: 'active' } as ChannelEntity;
  return {
    messages: new Map([['msg_1', message as MessageEntity]]),
    channels: new Map([[3, channel]]),
    templates: new Map(),
    contacts: new Map([[7, CONTACT]]),
    pushSubscriptions: new Map([[SUBSCRIPTION.subscriberId, SUBSCRIPTION]]),
  };
}

describe("a bot's text", () => {
  it.each<[ChannelType, ProviderName]>([
    ['sms', 'twilio'],
    ['rcs', 'twilio'],
    ['whatsapp', 'meta'],
    ['messenger', 'meta'],
    ['instagram', 'meta'],
    ['telegram', 'telegram'],
  ])(
    'goes to %s through %s as written: the body, no template, no subject, no tracked link',
    (type, provider) => {
      const plan = planSends([JOB], textRows(type, provider), new Set(), NOW, TRACKING);
      expect(plan.finishes).toEqual([]);
      const [send] = plan.providerSends;
      expect(send!.message).toEqual({
        messageId: 'msg_1',
        channelType: type,
        recipient: RECIPIENTS[type],
        body: TEXT,
      });
      // What the attempt records once the provider took it: the text, unchanged.
      expect(send!.rendered).toEqual({ body: TEXT, subject: null, html: null });
    },
  );

  it('goes by email with its first line as the subject and the whole text as the body, without HTML', () => {
    const [send] = planSends([JOB], textRows('email', 'smtp'), new Set(), NOW, TRACKING).providerSends;
    expect(send!.message).toEqual({
      messageId: 'msg_1',
      channelType: 'email',
      recipient: RECIPIENTS.email,
      body: TEXT,
      subject: 'Thanks {{ contact.name }}! Your table is booked: https://example.com/b/42',
    });
  });

  it("goes by web push to the contact's subscription, titled with its first line", () => {
    const [send] = planSends([JOB], textRows('browser_push', 'web_push'), new Set(), NOW).providerSends;
    expect(send!.message).toMatchObject({
      recipient: SUBSCRIPTION.endpoint,
      subject: 'Thanks {{ contact.name }}! Your table is booked: https://example.com/b/42',
      body: TEXT,
      pushSubscription: { endpoint: SUBSCRIPTION.endpoint, keys: { p256dh: 'key', auth: 'auth' } },
    });
  });

  it('is sent on a sandbox channel on the spot, as written', () => {
    const plan = planSends([JOB], textRows('sms', 'sandbox'), new Set(), NOW, TRACKING);
    expect(plan.finishes[0]!.attempt).toMatchObject({
      outcome: 'sent',
      recipient: RECIPIENTS.sms,
      body: TEXT,
      subject: null,
    });
    expect(plan.finishes[0]!.attempt.links).toBeUndefined();
  });

  it('is checked like any message: the suppression list, and consent for a marketing text', () => {
    const listed = new Set([suppressionKey(1, 'sms', RECIPIENTS.sms)]);
    const reason = (plan: ReturnType<typeof planSends>) => plan.finishes[0]!.attempt.suppression?.reason;
    expect(reason(planSends([JOB], textRows('sms', 'twilio'), listed, NOW))).toBe('suppressed_address');
    expect(
      reason(planSends([JOB], textRows('sms', 'twilio', { purpose: 'marketing' }), new Set(), NOW)),
    ).toBe('no_consent');
  });
});

describe('asWritten', () => {
  it('keeps the body exactly as written on every channel, and gives only email and push a subject', () => {
    expect(asWritten('sms', '  STOP?  ')).toEqual({
      ok: true,
      subject: null,
      body: '  STOP?  ',
      html: null,
      parameters: [],
    });
    expect(asWritten('email', 'Hello').subject).toBe('Hello');
    expect(asWritten('browser_push', 'Hello').subject).toBe('Hello');
    expect(asWritten('whatsapp', 'Hello').subject).toBeNull();
  });

  it('takes the first line that is not blank, trimmed and cut, or a default when there is none', () => {
    expect(asWritten('email', '\r\n   \r\n  Your order  \r\nshipped').subject).toBe('Your order');
    expect(asWritten('email', 'x'.repeat(200)).subject).toBe('x'.repeat(TEXT_SUBJECT_LENGTH));
    expect(asWritten('email', ' \n \n').subject).toBe(DEFAULT_TEXT_SUBJECT);
  });
});
