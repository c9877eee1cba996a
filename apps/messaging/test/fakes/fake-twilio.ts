import { randomBytes } from 'node:crypto';

import { basicCredentials, FakeHttpServer, type FakeReply, type RecordedRequest } from './fake-http-server';

export interface TwilioError {
  code: number;
  message: string;
  status: number;
}

/** The documented answers of Twilio's Messages API for the usual refusals. */
export const TWILIO_ERRORS = {
  invalidTo: { code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 },
  optedOut: { code: 21610, message: 'Attempt to send to unsubscribed recipient', status: 400 },
  auth: { code: 20003, message: 'Authenticate', status: 401 },
  tooManyRequests: { code: 20429, message: 'Too Many Requests', status: 429 },
  internal: { code: 20500, message: 'An internal server error has occurred', status: 500 },
} satisfies Record<string, TwilioError>;

export function twilioErrorReply(error: TwilioError, headers?: Record<string, string>): FakeReply {
  return {
    status: error.status,
    body: { ...error, more_info: `https://www.twilio.com/docs/errors/${error.code}` },
    ...(headers !== undefined ? { headers } : {}),
  };
}

const MESSAGES_PATH = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/;

/**
 * Twilio's Messages API as documented: Basic auth with the account SID and auth token, form-encoded
 * To, From or MessagingServiceSid, and Body; 201 with the message resource, or Twilio's error body.
 */
export class FakeTwilio {
  readonly server = new FakeHttpServer((request) => this.handle(request));
  private readonly accounts = new Map<string, string>();
  private readonly recipientErrors: { suffix: string; error: TwilioError }[] = [];

  /** An account whose auth token the fake accepts. */
  addAccount(accountSid: string, authToken: string): void {
    this.accounts.set(accountSid, authToken);
  }

  /** Recipients ending with `suffix` are refused with `error`. */
  refuseRecipients(suffix: string, error: TwilioError): void {
    this.recipientErrors.push({ suffix, error });
  }

  /** The form of every message request, oldest first. */
  sentMessages(): URLSearchParams[] {
    return this.server.requests
      .filter((request) => MESSAGES_PATH.test(request.path.split('?')[0]!))
      .map((request) => new URLSearchParams(request.body.toString('utf8')));
  }

  private handle(request: RecordedRequest): FakeReply {
    const match = MESSAGES_PATH.exec(request.path.split('?')[0]!);
    if (request.method !== 'POST' || match === null) {
      return twilioErrorReply({ code: 20404, message: 'The requested resource was not found', status: 404 });
    }
    const accountSid = decodeURIComponent(match[1]!);
    const credentials = basicCredentials(request.headers['authorization']);
    if (
      credentials === undefined ||
      credentials.user !== accountSid ||
      this.accounts.get(accountSid) !== credentials.password
    ) {
      return twilioErrorReply(TWILIO_ERRORS.auth);
    }
    if (!request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
      return twilioErrorReply({ code: 21602, message: 'Message body is required.', status: 400 });
    }
    const form = new URLSearchParams(request.body.toString('utf8'));
    const to = form.get('To');
    if (to === null)
      return twilioErrorReply({ code: 21604, message: "A 'To' phone number is required.", status: 400 });
    if (form.get('From') === null && form.get('MessagingServiceSid') === null) {
      return twilioErrorReply({ code: 21603, message: "A 'From' phone number is required.", status: 400 });
    }
    if (!form.get('Body'))
      return twilioErrorReply({ code: 21602, message: 'Message body is required.', status: 400 });
    if (!/^\+[1-9]\d{6,14}$/.test(to)) return twilioErrorReply(TWILIO_ERRORS.invalidTo);
    const refusal = this.recipientErrors.find((rule) => to.endsWith(rule.suffix));
    if (refusal !== undefined) return twilioErrorReply(refusal.error);
    const sid = `SM${randomBytes(16).toString('hex')}`;
    return {
      status: 201,
      body: {
        sid,
        account_sid: accountSid,
        to,
        from: form.get('From'),
        messaging_service_sid: form.get('MessagingServiceSid'),
        body: form.get('Body'),
        status: 'queued',
        num_segments: '1',
        direction: 'outbound-api',
        error_code: null,
        error_message: null,
        date_created: new Date().toUTCString(),
        uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
      },
    };
  }
}
