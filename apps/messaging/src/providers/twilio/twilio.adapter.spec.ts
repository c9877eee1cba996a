import type { CallbackRequest, ChannelConnection } from '../provider';
import { twilioFailureCode } from './twilio-codes';
import { twilioSignature } from './twilio-signature';
import { TwilioAdapter } from './twilio.adapter';

const channel: ChannelConnection = {
  id: 'ch_1',
  type: 'sms',
  provider: 'twilio',
  credentials: { account_sid: 'AC123', auth_token: '12345', from: '+15005550006' },
  metadata: {},
};
const adapter = new TwilioAdapter('http://127.0.0.1:9');
const form = 'application/x-www-form-urlencoded';
const callbackUrl = 'https://cms.example/webhook/provider/tok_abc';

function callback(params: Record<string, string>, signature?: string): CallbackRequest {
  const body = new URLSearchParams(params).toString();
  return {
    method: 'POST',
    query: {},
    headers: {
      'content-type': form,
      ...(signature !== undefined ? { 'x-twilio-signature': signature } : {}),
    },
    body: Buffer.from(body),
    url: callbackUrl,
  };
}

function parse(params: Record<string, string>) {
  return adapter.parseCallback(channel, {
    contentType: form,
    body: Buffer.from(new URLSearchParams(params).toString()),
  });
}

describe('Twilio', () => {
  it("signs like Twilio's documented example", () => {
    const params = new URLSearchParams({
      CallSid: 'CA1234567890ABCDE',
      Caller: '+14158675309',
      Digits: '1234',
      From: '+14158675309',
      To: '+18005551212',
    });
    expect(twilioSignature('12345', 'https://mycompany.com/myapp.php?foo=1&bar=2', params)).toBe(
      'RSOYDt4T1cUTdK1PDd93/VVr8B8=',
    );
  });

  it('accepts a callback signed with the auth token over the full URL and the sorted form', () => {
    const params = { MessageSid: 'SM1', MessageStatus: 'delivered', To: '+15551230000' };
    const signature = twilioSignature('12345', callbackUrl, new URLSearchParams(params));
    expect(adapter.verifyCallback(channel, callback(params, signature))).toEqual({ ok: true });
  });

  it('refuses a callback with a wrong or missing signature, or signed for another URL', () => {
    const params = { MessageSid: 'SM1', MessageStatus: 'delivered' };
    const wrongToken = twilioSignature('54321', callbackUrl, new URLSearchParams(params));
    const otherUrl = twilioSignature('12345', `${callbackUrl}x`, new URLSearchParams(params));
    const tampered = twilioSignature('12345', callbackUrl, new URLSearchParams(params));
    expect(adapter.verifyCallback(channel, callback(params, wrongToken))).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(adapter.verifyCallback(channel, callback(params, otherUrl))).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(
      adapter.verifyCallback(channel, callback({ ...params, MessageStatus: 'read' }, tampered)),
    ).toMatchObject({ ok: false, status: 401 });
    expect(adapter.verifyCallback(channel, callback(params))).toEqual({
      ok: false,
      status: 401,
      reason: 'X-Twilio-Signature is missing',
    });
  });

  it('reads status callbacks, a failure with its error code kept', () => {
    expect(parse({ MessageSid: 'SM1', MessageStatus: 'sent' })).toEqual([
      { kind: 'status', providerMessageId: 'SM1', status: 'sent' },
    ]);
    expect(parse({ MessageSid: 'SM1', MessageStatus: 'read' })).toEqual([
      { kind: 'status', providerMessageId: 'SM1', status: 'read' },
    ]);
    expect(parse({ MessageSid: 'SM1', MessageStatus: 'undelivered', ErrorCode: '30006' })).toEqual([
      {
        kind: 'status',
        providerMessageId: 'SM1',
        status: 'failed',
        failure: { code: 'landline', providerCode: '30006' },
      },
    ]);
    expect(parse({ MessageSid: 'SM1', MessageStatus: 'failed' })).toEqual([
      {
        kind: 'status',
        providerMessageId: 'SM1',
        status: 'failed',
        failure: { code: 'provider_error', providerCode: null },
      },
    ]);
    expect(parse({ MessageSid: 'SM1', MessageStatus: 'queued' })).toEqual([]);
  });

  it('reads an incoming SMS, and an opt-out Twilio recorded', () => {
    const incoming = { MessageSid: 'SM9', SmsStatus: 'received', From: '+15551230000', Body: 'hello' };
    expect(parse(incoming)).toEqual([
      { kind: 'inbound', from: '+15551230000', text: 'hello', providerMessageId: 'SM9' },
    ]);
    expect(parse({ ...incoming, Body: 'STOP', OptOutType: 'STOP' })).toEqual([
      { kind: 'inbound', from: '+15551230000', text: 'STOP', providerMessageId: 'SM9' },
      { kind: 'opt_out', address: '+15551230000' },
    ]);
  });

  it.each([
    ['21211', 400, 'invalid_recipient'],
    ['30005', undefined, 'invalid_recipient'],
    ['30006', undefined, 'landline'],
    ['30003', undefined, 'unreachable'],
    ['21614', 400, 'landline'],
    ['30036', undefined, 'expired'],
    ['21610', 400, 'opted_out'],
    ['30007', undefined, 'content_filtered'],
    ['20003', 401, 'channel_misconfigured'],
    ['20429', 429, 'rate_limited'],
    [undefined, 429, 'rate_limited'],
    ['20500', 500, 'provider_unavailable'],
    ['21617', 400, 'provider_error'],
  ])('maps Twilio code %s (HTTP %s) to %s', (code, status, expected) => {
    expect(twilioFailureCode(code, status)).toBe(expected);
  });
});
