import { freePort } from '@cms/testing';

import { IN_DOUBT_DETAIL } from '../src/providers/provider-http';
import type { ChannelConnection, OutboundMessage } from '../src/providers/provider';
import { parseProviderBaseUrls } from '../src/providers/provider-base-urls';
import { TwilioAdapter } from '../src/providers/twilio/twilio.adapter';
import { startProviderFakes, TWILIO_ERRORS, twilioErrorReply, type ProviderFakes } from './fakes';

const credentials = {
  account_sid: 'AC0123456789abcdef',
  auth_token: 'token-of-the-account',
  from: '+15005550006',
};
const channel: ChannelConnection = {
  id: 'ch_sms',
  type: 'sms',
  provider: 'twilio',
  credentials,
  metadata: {},
};
const message: OutboundMessage = {
  messageId: 'msg_000000000000000000000001',
  channelType: 'sms',
  recipient: '+15551234567',
  body: 'Your code is 1234',
  callbackUrl: 'https://cms.example/webhook/provider/tok_sms',
};

describe('Twilio adapter against the fake Messages API', () => {
  let fakes: ProviderFakes;
  let adapter: TwilioAdapter;

  beforeAll(async () => {
    fakes = await startProviderFakes();
    fakes.twilio.addAccount(credentials.account_sid, credentials.auth_token);
    fakes.twilio.refuseRecipients('0610', TWILIO_ERRORS.optedOut);
    adapter = new TwilioAdapter(parseProviderBaseUrls(fakes.providerBaseUrls).twilio, { timeoutMs: 2000 });
  });

  afterAll(async () => {
    await fakes.close();
  });

  it('sends To, From, Body and the status callback with Basic auth, once, and answers the message SID', async () => {
    const before = fakes.twilio.sentMessages().length;
    const result = await adapter.send(channel, message);
    expect(result).toEqual({ outcome: 'sent', providerMessageId: expect.stringMatching(/^SM[0-9a-f]{32}$/) });
    const sent = fakes.twilio.sentMessages().slice(before);
    expect(sent).toHaveLength(1);
    expect(Object.fromEntries(sent[0]!)).toEqual({
      To: '+15551234567',
      From: '+15005550006',
      Body: 'Your code is 1234',
      StatusCallback: 'https://cms.example/webhook/provider/tok_sms',
    });
  });

  it('sends through the messaging service instead of a number when the channel has one', async () => {
    const before = fakes.twilio.sentMessages().length;
    const viaService = {
      ...channel,
      credentials: { ...credentials, from: '', messaging_service_sid: 'MG123' },
    };
    await expect(adapter.send(viaService, message)).resolves.toMatchObject({ outcome: 'sent' });
    const [form] = fakes.twilio.sentMessages().slice(before);
    expect(form!.get('MessagingServiceSid')).toBe('MG123');
    expect(form!.has('From')).toBe(false);
  });

  it("maps a number Twilio finds invalid to invalid_recipient, keeping Twilio's code and message", async () => {
    await expect(adapter.send(channel, { ...message, recipient: '555-nope' })).resolves.toEqual({
      outcome: 'failed',
      code: 'invalid_recipient',
      providerCode: '21211',
      detail: "The 'To' number is not a valid phone number.",
    });
  });

  it('maps an unsubscribed recipient to opted_out', async () => {
    await expect(adapter.send(channel, { ...message, recipient: '+15551230610' })).resolves.toMatchObject({
      outcome: 'failed',
      code: 'opted_out',
      providerCode: '21610',
    });
  });

  it('maps refused credentials to channel_misconfigured', async () => {
    const wrong = { ...channel, credentials: { ...credentials, auth_token: 'not-the-token' } };
    await expect(adapter.send(wrong, message)).resolves.toMatchObject({
      outcome: 'failed',
      code: 'channel_misconfigured',
      providerCode: '20003',
    });
  });

  it('answers rate_limited with the Retry-After, and sends on the next try', async () => {
    fakes.twilio.server.failNext(1, twilioErrorReply(TWILIO_ERRORS.tooManyRequests, { 'retry-after': '5' }));
    await expect(adapter.send(channel, message)).resolves.toEqual({
      outcome: 'failed',
      code: 'rate_limited',
      providerCode: '20429',
      detail: 'Too Many Requests',
      retryAfterMs: 5000,
    });
    await expect(adapter.send(channel, message)).resolves.toMatchObject({ outcome: 'sent' });
  });

  it('answers provider_unavailable for a 5xx and for a provider that cannot be reached', async () => {
    fakes.twilio.server.failNext(1, { status: 503, body: 'Service Unavailable' });
    await expect(adapter.send(channel, message)).resolves.toMatchObject({
      outcome: 'failed',
      code: 'provider_unavailable',
      providerCode: '503',
    });
    const nowhere = new TwilioAdapter(`http://127.0.0.1:${await freePort()}`, { timeoutMs: 2000 });
    await expect(nowhere.send(channel, message)).resolves.toMatchObject({
      outcome: 'failed',
      code: 'provider_unavailable',
      providerCode: null,
      detail: expect.stringContaining('ECONNREFUSED'),
    });
  });

  it('answers a final provider_error, never retried, when Twilio took the request but did not answer in time', async () => {
    const impatient = new TwilioAdapter(fakes.twilio.server.baseUrl, { timeoutMs: 200 });
    fakes.twilio.server.failNext(1, { status: 201, body: { sid: 'SMlate' }, delayMs: 1000 });
    // The fake sent it: asking again would send it twice.
    await expect(impatient.send(channel, message)).resolves.toEqual({
      outcome: 'failed',
      code: 'provider_error',
      providerCode: null,
      detail: `no answer within 200 ms: ${IN_DOUBT_DETAIL}`,
    });
  });
});
