import {
  credential,
  type CallbackEvent,
  type CallbackRequest,
  type CallbackVerdict,
  type ChannelConnection,
  type OutboundMessage,
  type ProviderAdapter,
  type SendResult,
} from '../provider';
import {
  callProvider,
  failed,
  isFailure,
  retryAfterMs,
  safeEqual,
  textField,
  type ProviderHttpOptions,
} from '../provider-http';
import { twilioFailureCode } from './twilio-codes';
import { twilioSignature } from './twilio-signature';

/** Twilio's message statuses that are ours; queued, accepting, sending and scheduled change nothing. */
const STATUSES: Record<string, 'sent' | 'delivered' | 'read' | 'failed'> = {
  sent: 'sent',
  delivered: 'delivered',
  read: 'read',
  undelivered: 'failed',
  failed: 'failed',
};

function formOf(request: { contentType: string; body: Buffer }): URLSearchParams {
  return request.contentType.toLowerCase().startsWith('application/x-www-form-urlencoded')
    ? new URLSearchParams(request.body.toString('utf8'))
    : new URLSearchParams();
}

/** SMS and RCS through Twilio's Messages REST API (2010-04-01). */
export class TwilioAdapter implements ProviderAdapter {
  readonly provider = 'twilio' as const;

  constructor(
    private readonly baseUrl: string,
    private readonly http: ProviderHttpOptions = {},
  ) {}

  async send(channel: ChannelConnection, message: OutboundMessage): Promise<SendResult> {
    const accountSid = credential(channel, 'account_sid');
    const form = new URLSearchParams({ To: message.recipient, Body: message.body });
    const serviceSid = credential(channel, 'messaging_service_sid');
    if (serviceSid !== '') form.set('MessagingServiceSid', serviceSid);
    else form.set('From', credential(channel, 'from'));
    form.set('StatusCallback', message.callbackUrl);
    const basic = Buffer.from(`${accountSid}:${credential(channel, 'auth_token')}`).toString('base64');
    const answer = await callProvider(
      `${this.baseUrl}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`,
      {
        method: 'POST',
        headers: {
          authorization: `Basic ${basic}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: form.toString(),
      },
      this.http,
    );
    if (isFailure(answer)) return answer;
    const sid = textField(answer.json, 'sid');
    if (answer.status >= 200 && answer.status < 300 && sid !== undefined) {
      return { outcome: 'sent', providerMessageId: sid };
    }
    const code = textField(answer.json, 'code');
    const detail = textField(answer.json, 'message') ?? `Twilio answered ${answer.status}`;
    const failure = twilioFailureCode(code, answer.status);
    return failed(
      failure,
      code ?? String(answer.status),
      detail,
      failure === 'rate_limited' ? retryAfterMs(answer.headers['retry-after']) : undefined,
    );
  }

  verifyCallback(channel: ChannelConnection, request: CallbackRequest): CallbackVerdict {
    const presented = request.headers['x-twilio-signature'];
    if (presented === undefined) return { ok: false, status: 401, reason: 'X-Twilio-Signature is missing' };
    const params =
      request.method.toUpperCase() === 'POST'
        ? formOf({ contentType: request.headers['content-type'] ?? '', body: request.body })
        : new URLSearchParams();
    const expected = twilioSignature(credential(channel, 'auth_token'), request.url, params);
    return safeEqual(presented, expected)
      ? { ok: true }
      : { ok: false, status: 401, reason: 'X-Twilio-Signature does not match' };
  }

  parseCallback(
    _channel: Pick<ChannelConnection, 'type'>,
    request: { contentType: string; body: Buffer },
  ): CallbackEvent[] {
    const form = formOf(request);
    const sid = form.get('MessageSid') ?? form.get('SmsSid');
    const from = form.get('From');
    const messageStatus = form.get('MessageStatus');
    const smsStatus = form.get('SmsStatus');
    if (sid === null) return [];
    const inbound = messageStatus === 'received' || smsStatus === 'received' || messageStatus === null;
    if (inbound) {
      if (from === null) return [];
      const events: CallbackEvent[] = [
        { kind: 'inbound', from, text: form.get('Body') ?? '', providerMessageId: sid },
      ];
      if (form.get('OptOutType')?.toUpperCase() === 'STOP') events.push({ kind: 'opt_out', address: from });
      return events;
    }
    const status = STATUSES[messageStatus];
    if (status === undefined) return [];
    if (status !== 'failed') return [{ kind: 'status', providerMessageId: sid, status }];
    const errorCode = form.get('ErrorCode');
    return [
      {
        kind: 'status',
        providerMessageId: sid,
        status,
        failure: { code: twilioFailureCode(errorCode ?? undefined), providerCode: errorCode },
      },
    ];
  }
}
