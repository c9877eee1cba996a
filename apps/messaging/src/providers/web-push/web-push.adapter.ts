import { generateRequestDetails } from 'web-push';

import {
  credential,
  type AssertPublicEndpoint,
  type CallbackEvent,
  type CallbackVerdict,
  type ChannelConnection,
  type FailureCode,
  type OutboundMessage,
  type ProviderAdapter,
  type SendResult,
} from '../provider';
import { callProvider, failed, isFailure, retryAfterMs, type ProviderHttpOptions } from '../provider-http';

/** How long a push service keeps a notification for a browser that is offline. */
export const DEFAULT_PUSH_TTL_SECONDS = 24 * 60 * 60;

/** Our code for a push service's answer (RFC 8030 and the services' documented statuses). */
export function pushFailureCode(status: number): FailureCode {
  if (status === 404 || status === 410) return 'subscription_expired';
  if (status === 429) return 'rate_limited';
  if (status === 401 || status === 403) return 'channel_misconfigured';
  if (status >= 500) return 'provider_unavailable';
  return 'provider_error';
}

/**
 * Browser push with VAPID: `web-push` signs the VAPID JWT and encrypts the payload (aes128gcm); the
 * request goes out through undici like every provider call, with its timeout and dispatcher.
 */
export class WebPushAdapter implements ProviderAdapter {
  readonly provider = 'web_push' as const;

  constructor(
    private readonly assertPublicEndpoint: AssertPublicEndpoint,
    private readonly http: ProviderHttpOptions & { ttlSeconds?: number } = {},
  ) {}

  async send(channel: ChannelConnection, message: OutboundMessage): Promise<SendResult> {
    const subscription = message.pushSubscription;
    if (subscription === undefined) {
      return failed('subscription_expired', null, 'the contact has no push subscription on this channel');
    }
    try {
      await this.assertPublicEndpoint(subscription.endpoint);
    } catch (error) {
      return failed(
        'invalid_recipient',
        null,
        `push endpoint not allowed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    let details: ReturnType<typeof generateRequestDetails>;
    try {
      details = generateRequestDetails(
        subscription,
        JSON.stringify({ title: message.subject ?? '', body: message.body }),
        {
          TTL: this.http.ttlSeconds ?? DEFAULT_PUSH_TTL_SECONDS,
          contentEncoding: 'aes128gcm',
          vapidDetails: {
            subject: credential(channel, 'subject'),
            publicKey: credential(channel, 'vapid_public_key'),
            privateKey: credential(channel, 'vapid_private_key'),
          },
        },
      );
    } catch (error) {
      // web-push refuses VAPID keys or a subject that are not what the VAPID draft asks for.
      return failed('channel_misconfigured', null, error instanceof Error ? error.message : String(error));
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(details.headers)) headers[name.toLowerCase()] = String(value);
    const answer = await callProvider(
      details.endpoint,
      { method: 'POST', headers, ...(details.body !== null ? { body: details.body } : {}) },
      this.http,
    );
    if (isFailure(answer)) return answer;
    if (answer.status >= 200 && answer.status < 300) {
      // Push services name the notification in Location; the message id stands in when one does not.
      return { outcome: 'sent', providerMessageId: answer.headers['location'] ?? message.messageId };
    }
    const code = pushFailureCode(answer.status);
    return failed(
      code,
      answer.status,
      answer.text.trim() || `the push service answered ${answer.status}`,
      code === 'rate_limited' ? retryAfterMs(answer.headers['retry-after']) : undefined,
    );
  }

  /** Push services do not call back: a gone subscription is told in the answer to the send. */
  verifyCallback(): CallbackVerdict {
    return { ok: false, status: 401, reason: 'browser push channels take no provider callbacks' };
  }

  parseCallback(): CallbackEvent[] {
    return [];
  }
}
