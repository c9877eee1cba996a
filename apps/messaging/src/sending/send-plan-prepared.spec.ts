import type { ChannelEntity } from '../channels/channel.entity';
import type { MessageEntity } from '../messages/message.entity';
import { INTERRUPTED_DETAIL, isPrepared, planSends } from './send-plan';
import type { ClaimedJob, SendBatchRows } from './send-queue.repository';
import { suppressionKey } from './send-queue.repository';

const NOW = Date.parse('2026-01-01T00:00:00.000Z');

function job(fields: Partial<ClaimedJob> = {}): ClaimedJob {
  return {
    messageId: 'msg_r',
    workspaceId: 1,
    state: 'pending',
    attempts: 0,
    firstAttemptAt: new Date(NOW),
    lease: 'lease',
    ...fields,
  };
}

/** A keyword's confirmation: recipient and body fixed, no template, route or known contact. */
function rows(channel: Partial<ChannelEntity> = {}, recipient = '+15550300042'): SendBatchRows {
  const message = {
    id: 'msg_r',
    workspaceId: 1,
    direction: 'outbound',
    status: 'queued',
    channelType: 'sms',
    channelId: 3,
    templateId: null,
    contactId: null,
    recipient,
    body: 'You are unsubscribed.',
    subject: null,
    html: null,
    route: null,
  } as unknown as MessageEntity;
  return {
    messages: new Map([['msg_r', message]]),
    channels: new Map([
      [3, { id: 3, type: 'sms', provider: 'sandbox', status: 'active', ...channel } as ChannelEntity],
    ]),
    templates: new Map(),
    contacts: new Map(),
    pushSubscriptions: new Map(),
  };
}

describe('planSends: a message its decision prepared (a keyword confirmation)', () => {
  it('is one: outbound, without a route or a template', () => {
    expect(isPrepared(rows().messages.get('msg_r')!)).toBe(true);
    expect(isPrepared({ ...rows().messages.get('msg_r')!, direction: 'inbound' })).toBe(false);
  });

  it('sends to a suppressed address, without a contact or consent, with its own body', () => {
    const listed = new Set([suppressionKey(1, 'sms', '+15550300042')]);
    const plan = planSends([job()], rows(), listed, NOW);
    expect(plan.finishes).toEqual([
      {
        job: job(),
        attempt: expect.objectContaining({
          outcome: 'sent',
          recipient: '+15550300042',
          body: 'You are unsubscribed.',
        }),
      },
    ]);
    expect(plan.postponements).toEqual([]);
  });

  it('asks a real provider with the fixed recipient and body', () => {
    const plan = planSends([job()], rows({ provider: 'twilio' }), new Set(), NOW);
    expect(plan.providerSends[0]!.message).toEqual({
      messageId: 'msg_r',
      channelType: 'sms',
      recipient: '+15550300042',
      body: 'You are unsubscribed.',
    });
  });

  it('fails on a disabled or deleted channel, and never sends again a job found sending', () => {
    const disabled = planSends([job()], rows({ status: 'disabled' }), new Set(), NOW);
    expect(disabled.finishes[0]!.attempt.failure?.code).toBe('channel_disabled');
    const gone = rows();
    gone.channels.clear();
    expect(planSends([job()], gone, new Set(), NOW).finishes[0]!.attempt.failure?.code).toBe(
      'channel_disabled',
    );
    const interrupted = planSends([job({ state: 'sending' })], rows({ provider: 'twilio' }), new Set(), NOW);
    expect(interrupted.providerSends).toEqual([]);
    expect(interrupted.finishes[0]!.attempt.failure?.detail).toBe(INTERRUPTED_DETAIL);
  });

  it('keeps the sandbox outcomes of its recipient', () => {
    const plan = planSends([job()], rows({}, '+15550000001'), new Set(), NOW);
    expect(plan.finishes[0]!.attempt).toMatchObject({
      outcome: 'failed',
      failure: { code: 'invalid_recipient' },
    });
  });
});
