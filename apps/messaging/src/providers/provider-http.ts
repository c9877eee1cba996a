import { createHmac, timingSafeEqual } from 'node:crypto';

import { errorCodeOf, isBlockedAddress } from '@cms/http';
import { request, type Dispatcher } from 'undici';

import type { FailureCode, SendFailure } from './provider';

/** How long a provider has to answer one call. */
export const DEFAULT_PROVIDER_TIMEOUT_MS = 10_000;

/** Bodies of provider answers are read up to this size: enough for any error the providers document. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface ProviderHttpOptions {
  timeoutMs?: number;
  /** An undici dispatcher (a guarded connector, a test CA); the global one otherwise. */
  dispatcher?: Dispatcher;
}

export interface ProviderAnswer {
  status: number;
  headers: Record<string, string | undefined>;
  text: string;
  /** The body parsed as JSON, undefined when it is not JSON. */
  json: unknown;
}

export interface ProviderCall {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string | Buffer;
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function failed(
  code: FailureCode,
  providerCode: string | number | null,
  detail: string,
  retryAfterMs?: number,
): SendFailure {
  return {
    outcome: 'failed',
    code,
    providerCode: providerCode === null ? null : String(providerCode),
    detail: detail.slice(0, 1000),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
}

/** Errors raised before any byte of the request reached the provider: asking again cannot send twice. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * Why a request that reached the provider got no answer: it may have been carried out (the message
 * sent), so it is a final `provider_error`, never retried — a provider asked again would send twice.
 */
export const IN_DOUBT_DETAIL =
  'the provider did not answer after the message was handed to it; it may have been sent, so it is not sent again';

/**
 * One call to a provider's API. Never throws: an answer of any status is a ProviderAnswer. No answer
 * is `provider_unavailable` (retried by the send worker) when the provider was never reached (refused
 * connection, DNS, connect timeout), and a final `provider_error` when the request was sent and the
 * answer did not come (timeout, connection cut): the provider may have sent the message.
 */
export async function callProvider(
  url: string,
  call: ProviderCall,
  options: ProviderHttpOptions = {},
): Promise<ProviderAnswer | SendFailure> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await request(url, {
      method: call.method,
      headers: call.headers,
      ...(call.body !== undefined ? { body: call.body } : {}),
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      ...(options.dispatcher !== undefined ? { dispatcher: options.dispatcher } : {}),
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= MAX_ANSWER_BYTES) break;
    }
    response.body.destroy();
    const text = Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString('utf8');
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(response.headers)) headers[name] = header(value);
    return { status: response.statusCode, headers, text, json: parseJson(text) };
  } catch (error) {
    const code = errorCodeOf(error);
    // A guarded dispatcher (push endpoints) refused the address, when it was looked up or connected to.
    if (isBlockedAddress(error)) {
      return failed('invalid_recipient', null, `the address is not allowed: ${(error as Error).message}`);
    }
    if (code !== undefined && NOT_SENT_CODES.has(code)) {
      return failed('provider_unavailable', null, `could not reach the provider: ${code}`);
    }
    const timedOut = signal.aborted || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
    const why = timedOut
      ? `no answer within ${timeoutMs} ms`
      : `the connection failed: ${code ?? (error instanceof Error ? error.message : String(error))}`;
    return failed('provider_error', null, `${why}: ${IN_DOUBT_DETAIL}`);
  }
}

export function isFailure<T extends object>(value: T | SendFailure): value is SendFailure {
  return 'outcome' in value;
}

/** Retry-After in seconds or as an HTTP date, in milliseconds from now. */
export function retryAfterMs(value: string | number | undefined, nowMs = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value * 1000 : undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** Compares a presented secret or signature with the expected one in constant time. */
export function safeEqual(presented: string | undefined, expected: string): boolean {
  if (presented === undefined || expected === '') return false;
  // Digests of equal length, so neither the length nor the content of the expected value leaks.
  const digest = (text: string): Buffer => createHmac('sha256', 'compare').update(text).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/** An object's own property, when the value is one. */
export function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[name]
    : undefined;
}

export function textField(value: unknown, name: string): string | undefined {
  const found = field(value, name);
  if (typeof found === 'string') return found;
  if (typeof found === 'number') return String(found);
  return undefined;
}

export function listField(value: unknown, name: string): unknown[] {
  const found = field(value, name);
  return Array.isArray(found) ? found : [];
}

/** Unix seconds (a number or digits) as ISO 8601. */
export function isoFromUnixSeconds(value: unknown): string | undefined {
  const seconds = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000).toISOString() : undefined;
}
