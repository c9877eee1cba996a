import { freePort } from '@cms/testing';

import type { ChannelConnection, OutboundMessage } from '../src/providers/provider';
import { SmtpAdapter } from '../src/providers/smtp/smtp.adapter';
import { FakeSmtp } from './fakes';

const message: OutboundMessage = {
  messageId: 'msg_000000000000000000000004',
  channelType: 'email',
  recipient: 'ada@example.org',
  subject: 'Your receipt',
  body: 'Thanks for your order.',
  html: '<p>Thanks for your order.</p>',
  callbackUrl: 'https://cms.example/webhook/provider/tok_mail',
};

function channelOf(port: number, credentials: Record<string, unknown> = {}): ChannelConnection {
  return {
    id: 'ch_mail',
    type: 'email',
    provider: 'smtp',
    credentials: { host: '127.0.0.1', port, from: 'Shop <news@shop.example>', ...credentials },
    metadata: {},
  };
}

describe('SMTP adapter against a real SMTP server', () => {
  const open = new FakeSmtp();
  const withLogin = new FakeSmtp();
  const adapter = new SmtpAdapter({ timeoutMs: 3000 });

  beforeAll(async () => {
    await Promise.all([open.start(), withLogin.start()]);
    open.refuseRecipients((address) => address.startsWith('nobody@'));
    withLogin.addUser('shop', 'mail-password');
  });

  afterAll(async () => {
    await Promise.all([open.close(), withLogin.close()]);
  });

  it('submits the message with a Message-ID made from the message id, and answers that id', async () => {
    const result = await adapter.send(channelOf(open.port), message);
    expect(result).toEqual({
      outcome: 'sent',
      providerMessageId: '<msg_000000000000000000000004@shop.example>',
    });
    expect(open.mails).toHaveLength(1);
    const [mail] = open.mails;
    expect(mail!.from).toBe('news@shop.example');
    expect(mail!.to).toEqual(['ada@example.org']);
    expect(mail!.raw).toContain('Message-ID: <msg_000000000000000000000004@shop.example>');
    expect(mail!.raw).toContain('Subject: Your receipt');
    expect(mail!.raw).toContain('Thanks for your order.');
    expect(mail!.raw).toContain('<p>Thanks for your order.</p>');
  });

  it('logs in when the channel has a username', async () => {
    const channel = channelOf(withLogin.port, { username: 'shop', password: 'mail-password' });
    await expect(adapter.send(channel, message)).resolves.toMatchObject({ outcome: 'sent' });
    expect(withLogin.mails).toHaveLength(1);
  });

  it('maps a refused login to channel_misconfigured with the SMTP code', async () => {
    const channel = channelOf(withLogin.port, { username: 'shop', password: 'wrong' });
    await expect(adapter.send(channel, message)).resolves.toMatchObject({
      outcome: 'failed',
      code: 'channel_misconfigured',
      providerCode: '535',
    });
  });

  it('maps a recipient the server refuses for good to bounced with the SMTP code', async () => {
    const before = open.mails.length;
    await expect(
      adapter.send(channelOf(open.port), { ...message, recipient: 'nobody@example.org' }),
    ).resolves.toEqual({
      outcome: 'failed',
      code: 'bounced',
      providerCode: '550',
      detail: expect.stringContaining('User unknown'),
    });
    expect(open.mails).toHaveLength(before);
  });

  it('connects to no SMTP host the address policy refuses', async () => {
    const guarded = new SmtpAdapter({
      timeoutMs: 3000,
      assertPublicEndpoint: (url) => {
        throw new Error(`${url} is a loopback address`);
      },
    });
    const before = open.mails.length;
    await expect(guarded.send(channelOf(open.port), message)).resolves.toEqual({
      outcome: 'failed',
      code: 'channel_misconfigured',
      providerCode: null,
      detail: `SMTP host not allowed: smtp://127.0.0.1:${open.port} is a loopback address`,
    });
    expect(open.mails).toHaveLength(before);
  });

  it('retries a deferral and a server that cannot be reached', async () => {
    open.deferNext(1);
    await expect(adapter.send(channelOf(open.port), message)).resolves.toMatchObject({
      code: 'provider_unavailable',
      providerCode: '451',
    });
    await expect(adapter.send(channelOf(await freePort()), message)).resolves.toMatchObject({
      code: 'provider_unavailable',
    });
  });
});
