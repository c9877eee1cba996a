import type { ChannelEntity } from '../channels/channel.entity';
import type { ContactEntity } from '../contacts/contact.entity';
import type { MessageEntity } from '../messages/message.entity';
import type { TemplateEntity } from '../templates/template.entity';
import {
  CONTACT_WAIT_MS,
  INTERRUPTED_DETAIL,
  planSends,
  RETRY_FOR_MS,
  settleProviderSend,
} from './send-plan';
import type { ClaimedJob, SendBatchRows } from './send-queue.repository';
import { suppressionKey } from './send-queue.repository';

const NOW = Date.parse('2026-01-01T00:00:00.000Z');

function job(fields: Partial<ClaimedJob> = {}): ClaimedJob {
  return {
    messageId: 'msg_1',
    workspaceId: 1,
    state: 'pending',
    attempts: 0,
    firstAttemptAt: new Date(NOW),
    lease: 'lease',
    ...fields,
  };
}

function contact(fields: Partial<ContactEntity> = {}): ContactEntity {
  return {
    id: 7,
    workspaceId: 1,
    name: 'Ada',
    phone: '+15550005',
    email: null,
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
    channels: { telegram: null, messenger: null, instagram: null, browser_push: null },
    updatedAt: new Date(NOW),
    ...fields,
  };
}

function rows(
  options: {
    contact?: ContactEntity | null;
    channel?: Partial<ChannelEntity>;
    body?: string;
    purpose?: 'marketing';
  } = {},
): SendBatchRows {
  const message: Partial<MessageEntity> = {
    id: 'msg_1',
    workspaceId: 1,
    status: 'queued',
    channelType: 'sms',
    channelId: 3,
    templateId: 4,
    contactId: 7,
    route: {
      steps: [{ channel_id: 3, channel: 'sms', template_id: 4, wait_for: null, timeout_ms: null }],
      step: 0,
      variables: { code: '9' },
      purpose: options.purpose ?? 'transactional',
    },
  };
  const channel = {
    id: 3,
    type: 'sms',
    provider: 'sandbox',
    status: 'active',
    ...options.channel,
  } as ChannelEntity;
  const template = {
    id: 4,
    channel: 'sms',
    body: options.body ?? 'Hi {{ contact.name }} {{ vars.code }}',
    subject: null,
    html: null,
    providerTemplate: null,
  } as TemplateEntity;
  const found = options.contact === undefined ? contact() : options.contact;
  return {
    messages: new Map([['msg_1', message as MessageEntity]]),
    channels: new Map([[3, channel]]),
    templates: new Map([[4, template]]),
    contacts: new Map(found === null ? [] : [[7, found]]),
    pushSubscriptions: new Map(),
  };
}

describe('planSends', () => {
  it('sends a sandbox message on the spot, rendered, with the outcome its recipient says', () => {
    const plan = planSends([job()], rows(), new Set(), NOW);
    expect(plan.finishes).toEqual([
      {
        job: job(),
        attempt: expect.objectContaining({ outcome: 'sent', recipient: '+15550005', body: 'Hi Ada 9' }),
      },
    ]);
    const failing = planSends([job()], rows({ contact: contact({ phone: '+15550001' }) }), new Set(), NOW);
    expect(failing.finishes[0]!.attempt).toMatchObject({
      outcome: 'failed',
      failure: { code: 'invalid_recipient' },
    });
  });

  it('checks who may be messaged in order: recipient, suppression list, consent, rendering', () => {
    const attempt = (plan: ReturnType<typeof planSends>) => plan.finishes[0]!.attempt.suppression?.reason;
    expect(attempt(planSends([job()], rows({ contact: contact({ phone: null }) }), new Set(), NOW))).toBe(
      'no_recipient',
    );
    const listed = new Set([suppressionKey(1, 'sms', '+15550005')]);
    expect(attempt(planSends([job()], rows({ purpose: 'marketing' }), listed, NOW))).toBe(
      'suppressed_address',
    );
    expect(attempt(planSends([job()], rows({ purpose: 'marketing' }), new Set(), NOW))).toBe('no_consent');
    const unrendered = planSends([job()], rows({ body: '{{ vars.missing }}' }), new Set(), NOW);
    expect(unrendered.finishes[0]!.attempt.suppression).toMatchObject({
      reason: 'render_error',
      detail: expect.stringContaining('vars.missing'),
    });
  });

  it('fails a disabled channel, and asks a real provider outside the batch', () => {
    const disabled = planSends([job()], rows({ channel: { status: 'disabled' } }), new Set(), NOW);
    expect(disabled.finishes[0]!.attempt.failure?.code).toBe('channel_disabled');
    const twilio = planSends([job()], rows({ channel: { provider: 'twilio' } }), new Set(), NOW);
    expect(twilio.finishes).toEqual([]);
    expect(twilio.providerSends[0]!.message).toMatchObject({ recipient: '+15550005', body: 'Hi Ada 9' });
  });

  it('waits a while for a contact the view does not have yet, then suppresses the message', () => {
    const waiting = planSends([job()], rows({ contact: null }), new Set(), NOW + CONTACT_WAIT_MS - 1);
    expect(waiting.postponements).toHaveLength(1);
    const late = planSends([job()], rows({ contact: null }), new Set(), NOW + CONTACT_WAIT_MS);
    expect(late.finishes[0]!.attempt.suppression?.reason).toBe('no_recipient');
  });

  it('never sends again a job found sending: its outcome is unknown', () => {
    const plan = planSends(
      [job({ state: 'sending' })],
      rows({ channel: { provider: 'twilio' } }),
      new Set(),
      NOW,
    );
    expect(plan.providerSends).toEqual([]);
    expect(plan.finishes[0]!.attempt.failure).toEqual({
      code: 'provider_error',
      provider_code: null,
      detail: INTERRUPTED_DETAIL,
    });
  });
});

describe('settleProviderSend', () => {
  const send = planSends([job()], rows({ channel: { provider: 'twilio' } }), new Set(), NOW)
    .providerSends[0]!;

  it('retries a rate limit with backoff, no sooner than the provider asked, for an hour', () => {
    const limited = {
      outcome: 'failed',
      code: 'rate_limited',
      providerCode: '20429',
      detail: 'slow down',
    } as const;
    expect(settleProviderSend(send, { ...limited, retryAfterMs: 90_000 }, NOW)).toEqual({
      postponement: expect.objectContaining({ delayMs: 90_000, counted: true }),
    });
    expect(settleProviderSend({ ...send, job: job({ attempts: 3 }) }, limited, NOW)).toEqual({
      postponement: expect.objectContaining({ delayMs: 8_000 }),
    });
    expect(settleProviderSend(send, limited, NOW + RETRY_FOR_MS)).toEqual({
      finish: expect.objectContaining({
        attempt: expect.objectContaining({ failure: expect.objectContaining({ code: 'rate_limited' }) }),
      }),
    });
  });

  it('records a sent message with the provider id', () => {
    expect(settleProviderSend(send, { outcome: 'sent', providerMessageId: 'SM1' }, NOW)).toEqual({
      finish: expect.objectContaining({
        attempt: expect.objectContaining({ outcome: 'sent', provider_message_id: 'SM1' }),
      }),
    });
  });
});
