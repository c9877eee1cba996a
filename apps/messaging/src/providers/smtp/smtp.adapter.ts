import { createTransport } from 'nodemailer';

import {
  credential,
  type AssertPublicEndpoint,
  type CallbackEvent,
  type CallbackVerdict,
  type ChannelConnection,
  type OutboundMessage,
  type ProviderAdapter,
  type SendResult,
} from '../provider';
import { DEFAULT_PROVIDER_TIMEOUT_MS, failed } from '../provider-http';
import { smtpFailure, type SmtpError } from './smtp-failure';

/** The domain of the sender's address, for Message-IDs: `Name <a@b.example>` or `a@b.example`. */
function senderDomain(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  const domain = address.slice(address.lastIndexOf('@') + 1).trim();
  return domain !== '' && address.includes('@') ? domain : 'messaging.invalid';
}

/** The Message-ID a message is sent with: known before sending, so it is the provider message id. */
export function emailMessageId(messageId: string, from: string): string {
  return `<${messageId}@${senderDomain(from)}>`;
}

export interface SmtpAdapterOptions {
  timeoutMs?: number;
  /** Trust beyond the system's CAs (tests: a throwaway CA). */
  tls?: { ca?: string | string[] };
  /** Checks `smtp://host:port` before connecting. */
  assertPublicEndpoint?: AssertPublicEndpoint;
}

/**
 * Email by SMTP submission. Unlike the other providers the server's address comes from the channel's
 * credentials: the SMTP server is the customer's own mail infrastructure (their relay or their email
 * provider's submission host), not an API of ours to pin in the environment. Because a customer
 * chooses it, it passes the same address policy as push endpoints before anything is sent.
 */
export class SmtpAdapter implements ProviderAdapter {
  readonly provider = 'smtp' as const;

  constructor(private readonly options: SmtpAdapterOptions = {}) {}

  async send(channel: ChannelConnection, message: OutboundMessage): Promise<SendResult> {
    const host = credential(channel, 'host');
    const port = Number(credential(channel, 'port'));
    try {
      await this.options.assertPublicEndpoint?.(`smtp://${host.includes(':') ? `[${host}]` : host}:${port}`);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return failed('channel_misconfigured', null, `SMTP host not allowed: ${reason}`);
    }
    const from = credential(channel, 'from');
    const username = credential(channel, 'username');
    const timeout = this.options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
    const secure = channel.credentials['secure'] === true || channel.credentials['secure'] === 'true';
    const transport = createTransport({
      host,
      port,
      secure,
      ...(username !== '' ? { auth: { user: username, pass: credential(channel, 'password') } } : {}),
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
      ...(this.options.tls !== undefined ? { tls: this.options.tls } : {}),
    });
    const messageId = emailMessageId(message.messageId, from);
    try {
      await transport.sendMail({
        from,
        to: message.recipient,
        subject: message.subject ?? '',
        text: message.body,
        ...(message.html !== undefined ? { html: message.html } : {}),
        messageId,
      });
      return { outcome: 'sent', providerMessageId: messageId };
    } catch (error) {
      return smtpFailure(error as SmtpError);
    } finally {
      transport.close();
    }
  }

  /** Mail servers do not call back: bounces and complaints arrive by mail, not at the callback URL. */
  verifyCallback(): CallbackVerdict {
    return { ok: false, status: 401, reason: 'email channels take no provider callbacks' };
  }

  parseCallback(): CallbackEvent[] {
    return [];
  }
}
