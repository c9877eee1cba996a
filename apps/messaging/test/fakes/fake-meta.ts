import { randomBytes } from 'node:crypto';

import { FakeHttpServer, jsonBody, type FakeReply, type RecordedRequest } from './fake-http-server';

export interface GraphError {
  message: string;
  type: string;
  code: number;
  error_subcode?: number;
  status: number;
}

/** Documented Graph API refusals of the send endpoints. */
export const GRAPH_ERRORS = {
  notOnWhatsApp: {
    message: '(#131026) Message Undeliverable',
    type: 'OAuthException',
    code: 131026,
    status: 400,
  },
  outsideWindow: {
    message: '(#131047) Re-engagement message',
    type: 'OAuthException',
    code: 131047,
    status: 400,
  },
  rateLimited: {
    message: '(#130429) Rate limit hit',
    type: 'OAuthException',
    code: 130429,
    status: 400,
  },
  invalidToken: {
    message: 'Invalid OAuth access token - Cannot parse access token',
    type: 'OAuthException',
    code: 190,
    status: 401,
  },
} satisfies Record<string, GraphError>;

export function graphErrorReply(error: GraphError): FakeReply {
  const { status, ...fields } = error;
  return { status, body: { error: { ...fields, fbtrace_id: randomBytes(8).toString('hex') } } };
}

function missing(parameter: string): FakeReply {
  return graphErrorReply({
    message: `(#100) The parameter ${parameter} is required`,
    type: 'OAuthException',
    code: 100,
    status: 400,
  });
}

const MESSAGES_PATH = /^\/v\d+\.\d+\/([^/]+)\/messages$/;

/**
 * The Graph API's send endpoints: `/{phone-number-id}/messages` (WhatsApp Cloud API) and
 * `/{page-id or instagram-account-id}/messages` (Messenger, Instagram), with a Bearer access token.
 */
export class FakeMeta {
  readonly server = new FakeHttpServer((request) => this.handle(request));
  private readonly accounts = new Map<string, { token: string; kind: 'whatsapp' | 'page' }>();
  private readonly recipientErrors: { suffix: string; error: GraphError }[] = [];
  private readonly slowRecipients: { suffix: string; delayMs: number }[] = [];
  /** The message id each WhatsApp recipient was given, as soon as the request came. */
  readonly acceptedIds = new Map<string, string>();

  addWhatsAppNumber(phoneNumberId: string, accessToken: string): void {
    this.accounts.set(phoneNumberId, { token: accessToken, kind: 'whatsapp' });
  }

  /** A Facebook page or Instagram professional account. */
  addPage(pageId: string, accessToken: string): void {
    this.accounts.set(pageId, { token: accessToken, kind: 'page' });
  }

  refuseRecipients(suffix: string, error: GraphError): void {
    this.recipientErrors.push({ suffix, error });
  }

  /** Answers sends to recipients ending with `suffix` only after `delayMs` (its id is known at once). */
  answerSlowly(suffix: string, delayMs: number): void {
    this.slowRecipients.push({ suffix, delayMs });
  }

  /** The JSON body of every send request to `account`, oldest first. */
  sentTo(account: string): unknown[] {
    return this.server.requests
      .filter((request) => MESSAGES_PATH.exec(request.path)?.[1] === account)
      .map((request) => jsonBody(request));
  }

  private handle(request: RecordedRequest): FakeReply {
    const match = MESSAGES_PATH.exec(request.path);
    const account = match !== null ? this.accounts.get(match[1]!) : undefined;
    if (request.method !== 'POST' || match === null) {
      return graphErrorReply({
        message: 'Unknown path components',
        type: 'OAuthException',
        code: 2500,
        status: 400,
      });
    }
    if (account === undefined || request.headers['authorization'] !== `Bearer ${account.token}`) {
      return graphErrorReply(GRAPH_ERRORS.invalidToken);
    }
    const body = jsonBody(request) as Record<string, unknown> | undefined;
    if (body === undefined) return missing('messaging_product');
    return account.kind === 'whatsapp' ? this.whatsapp(body) : this.page(body);
  }

  private whatsapp(body: Record<string, unknown>): FakeReply {
    if (body['messaging_product'] !== 'whatsapp') return missing('messaging_product');
    const to = body['to'];
    if (typeof to !== 'string' || to === '') return missing('to');
    if (body['type'] === 'text') {
      const text = body['text'] as { body?: unknown } | undefined;
      if (typeof text?.body !== 'string' || text.body === '') return missing('text.body');
    } else if (body['type'] === 'template') {
      const template = body['template'] as { name?: unknown; language?: { code?: unknown } } | undefined;
      if (typeof template?.name !== 'string') return missing('template.name');
      if (typeof template.language?.code !== 'string') return missing('template.language.code');
    } else {
      return missing('type');
    }
    const refusal = this.recipientErrors.find((rule) => to.endsWith(rule.suffix));
    if (refusal !== undefined) return graphErrorReply(refusal.error);
    const id = `wamid.${randomBytes(24).toString('base64url')}`;
    this.acceptedIds.set(to, id);
    const slow = this.slowRecipients.find((rule) => to.endsWith(rule.suffix));
    return {
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        contacts: [{ input: to, wa_id: to.replace(/\D/g, '') }],
        messages: [{ id }],
      },
      ...(slow !== undefined ? { delayMs: slow.delayMs } : {}),
    };
  }

  private page(body: Record<string, unknown>): FakeReply {
    const recipient = (body['recipient'] as { id?: unknown } | undefined)?.id;
    if (typeof recipient !== 'string' || recipient === '') return missing('recipient');
    const text = (body['message'] as { text?: unknown } | undefined)?.text;
    if (typeof text !== 'string' || text === '') return missing('message');
    const refusal = this.recipientErrors.find((rule) => recipient.endsWith(rule.suffix));
    if (refusal !== undefined) return graphErrorReply(refusal.error);
    return {
      status: 200,
      body: { recipient_id: recipient, message_id: `m_${randomBytes(24).toString('base64url')}` },
    };
  }
}
