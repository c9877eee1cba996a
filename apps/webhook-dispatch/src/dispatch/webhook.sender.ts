import { performance } from 'node:perf_hooks';

import { Agent, request } from 'undici';

import type { AddressPolicy } from '@cms/http';
import { errorCodeOf, guardedConnector, isBlockedAddress, type Resolver } from '@cms/http';
import { parseRetryAfter } from './retry-schedule';

/** Response bodies are kept up to this many bytes (extensions §4). */
export const MAX_RESPONSE_BODY_BYTES = 16 * 1024;

export const USER_AGENT = 'Service-Webhooks/1.0';

export interface WebhookRequest {
  url: string;
  deliveryId: string;
  eventType: string;
  /** The stored envelope: sent byte for byte. */
  body: string;
  signature: string;
}

/**
 * How an attempt ended, as counted in `cms_webhook_attempts_total`: answered 2xx, answered otherwise,
 * no answer in time, an address the SSRF policy refuses, or not reached (DNS, connection, TLS).
 */
export type AttemptKind = 'succeeded' | 'refused' | 'timeout' | 'blocked' | 'unreachable';

export interface AttemptResult {
  /** A 2xx within the timeout. */
  ok: boolean;
  kind: AttemptKind;
  responseStatus: number | null;
  responseBody: string | null;
  durationMs: number;
  /** Why the attempt failed; null when it succeeded. */
  error: string | null;
  /** From a 429 or 503 that carried Retry-After. */
  retryAfterSeconds?: number;
  /**
   * The endpoint could not be reached or did not answer in time (DNS, connect, TLS, timeout, a refused
   * address): what its circuit breaker counts. An answer, even a 500, is not.
   */
  unreachable: boolean;
}

export interface WebhookSenderOptions {
  policy: AddressPolicy;
  timeoutMs: number;
  resolve?: Resolver;
  ca?: string | string[];
}

const TLS_CODE = /^(CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_TLS_|ERR_SSL_|HOSTNAME_MISMATCH)/;
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

/** Postgres text cannot hold NUL; a receiver's bytes are shown, not trusted. */
function printable(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD');
}

/**
 * Sends one attempt: a POST with exactly the specification's headers, no redirects followed (undici
 * follows none unless told), TLS verified, through the SSRF-guarded connector. Never throws: every
 * way an attempt can end is an AttemptResult.
 */
export class WebhookSender {
  private readonly agent: Agent;

  constructor(private readonly options: WebhookSenderOptions) {
    this.agent = new Agent({
      connect: guardedConnector({
        policy: options.policy,
        connectTimeoutMs: options.timeoutMs,
        ...(options.resolve !== undefined ? { resolve: options.resolve } : {}),
        ...(options.ca !== undefined ? { ca: options.ca } : {}),
      }),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 4_000,
      keepAliveMaxTimeout: 30_000,
    });
  }

  async send(webhook: WebhookRequest): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    try {
      const response = await request(webhook.url, {
        dispatcher: this.agent,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'service-event': webhook.eventType,
          'service-delivery': webhook.deliveryId,
          'service-signature': webhook.signature,
        },
        body: webhook.body,
        signal,
      });
      const status = response.statusCode;
      const body = await this.readCapped(response.body);
      const ok = status >= 200 && status < 300;
      const retryAfterHeader = response.headers['retry-after'];
      const retryAfter =
        status === 429 || status === 503
          ? parseRetryAfter(
              Array.isArray(retryAfterHeader) ? retryAfterHeader[0] : retryAfterHeader,
              Date.now(),
            )
          : undefined;
      return {
        ok,
        kind: ok ? 'succeeded' : 'refused',
        responseStatus: status,
        responseBody: body,
        durationMs: elapsed(),
        error: ok ? null : this.statusError(status, response.headers['location']),
        unreachable: false,
        ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
      };
    } catch (error) {
      const failure = this.describe(error, signal.aborted);
      return {
        ok: false,
        kind: failure.kind,
        responseStatus: null,
        responseBody: null,
        durationMs: elapsed(),
        error: failure.message,
        unreachable: true,
      };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  /** Reads at most 16 KiB of the answer; what does not arrive before the deadline is left out. */
  private async readCapped(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of body) {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= MAX_RESPONSE_BODY_BYTES) break;
      }
    } catch {
      // The status is the answer; a body cut short by the deadline or a reset is kept as far as it came.
    } finally {
      body.destroy();
    }
    return printable(Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BODY_BYTES).toString('utf8'));
  }

  private statusError(status: number, location: string | string[] | undefined): string {
    if (status >= 300 && status < 400) {
      const target = Array.isArray(location) ? location[0] : location;
      return `answered ${status}; redirects are not followed${target ? ` (to ${target.slice(0, 200)})` : ''}`;
    }
    return `answered ${status}; a 2xx was expected`;
  }

  private describe(
    error: unknown,
    timedOut: boolean,
  ): { kind: 'timeout' | 'blocked' | 'unreachable'; message: string } {
    const code = errorCodeOf(error);
    if (isBlockedAddress(error)) {
      return { kind: 'blocked', message: `address not allowed: ${(error as Error).message}` };
    }
    if (
      timedOut ||
      code === 'UND_ERR_HEADERS_TIMEOUT' ||
      code === 'UND_ERR_BODY_TIMEOUT' ||
      code === 'UND_ERR_CONNECT_TIMEOUT' ||
      (error instanceof Error && error.name === 'TimeoutError')
    ) {
      return { kind: 'timeout', message: `timeout: no answer within ${this.options.timeoutMs} ms` };
    }
    return { kind: 'unreachable', message: this.unreachable(error, code) };
  }

  private unreachable(error: unknown, code: string | undefined): string {
    const message = error instanceof Error ? error.message : String(error);
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') {
      return `DNS: the host could not be resolved (${code})`;
    }
    if (code !== undefined && TLS_CODE.test(code)) return `TLS: ${code}: ${message}`;
    if (code !== undefined && CONNECT_CODES.has(code)) return `connection failed: ${code}: ${message}`;
    return `request failed: ${code ? `${code}: ` : ''}${message}`;
  }
}
