import type { ChannelConnection, ChannelType } from '../provider';
import { SandboxAdapter, sandboxOutcome } from './sandbox.adapter';

describe('sandbox outcomes (§9.5)', () => {
  it.each([
    ['sms', '+15550100001', { initial: 'invalid_recipient', then: [] }],
    ['whatsapp', '+1 555 010-0002', { initial: 'not_on_channel', then: [] }],
    ['rcs', '+15550100003', { initial: 'unreachable', then: [] }],
    ['sms', '+15550100004', { initial: 'opted_out', then: [] }],
    ['sms', '+15550100005', { initial: 'sent', then: ['delivered', 'read'] }],
    ['sms', '+15550100009', { initial: 'sent', then: [] }],
    ['sms', '+15550100006', { initial: 'sent', then: ['delivered'] }],
    ['email', 'invalid@example.com', { initial: 'invalid_recipient', then: [] }],
    ['email', 'NotOnChannel@example.com', { initial: 'not_on_channel', then: [] }],
    ['email', 'unreachable@example.com', { initial: 'unreachable', then: [] }],
    ['email', 'optout@example.com', { initial: 'opted_out', then: [] }],
    ['email', 'reader@example.com', { initial: 'sent', then: ['delivered', 'read'] }],
    ['email', 'silent@example.com', { initial: 'sent', then: [] }],
    ['email', 'someone.0001@example.com', { initial: 'sent', then: ['delivered'] }],
    ['telegram', '98760001', { initial: 'invalid_recipient', then: [] }],
    ['messenger', 'psid-0005', { initial: 'sent', then: ['delivered', 'read'] }],
    ['browser_push', 'sub_abc0009', { initial: 'sent', then: [] }],
    ['instagram', 'igsid-1234', { initial: 'sent', then: ['delivered'] }],
  ])('%s to %s → %j', (type, recipient, expected) => {
    expect(sandboxOutcome(type as ChannelType, recipient)).toEqual(expected);
  });

  it('sends nothing and answers the outcome of the recipient', async () => {
    const adapter = new SandboxAdapter();
    const channel: ChannelConnection = {
      id: 'c',
      type: 'sms',
      provider: 'sandbox',
      credentials: {},
      metadata: {},
    };
    const message = { messageId: 'msg_1', channelType: 'sms' as const, body: 'hi', callbackUrl: 'https://x' };
    await expect(adapter.send(channel, { ...message, recipient: '+15550100006' })).resolves.toEqual({
      outcome: 'sent',
      providerMessageId: 'sandbox_msg_1',
    });
    await expect(adapter.send(channel, { ...message, recipient: '+15550100003' })).resolves.toMatchObject({
      outcome: 'failed',
      code: 'unreachable',
      providerCode: null,
    });
  });
});
