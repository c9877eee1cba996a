import { createHmac, timingSafeEqual } from 'node:crypto';

import type { webhooks } from './schema';

/** What every outbound webhook's body has, whatever its kind (specification, Events). */
export interface WebhookEnvelope {
  /** UUID; equals the Service-Delivery header. Receivers de-duplicate with it. */
  id: string;
  /** The event kind (`message.sent`, …, `webhook.test` for a test delivery); equals Service-Event. */
  type: string;
  /** ISO 8601, UTC. */
  created_at: string;
  data: Record<string, unknown>;
}

/** The body the API document describes for one outbound event kind (its `webhooks` entry). */
export type WebhookPayload<Kind extends keyof webhooks> = webhooks[Kind] extends {
  post: { requestBody: { content: { 'application/json': infer Body } } };
}
  ? Body
  : never;

/** Every outbound event the document describes, told apart by `type`. */
export type WebhookEvent = { [Kind in keyof webhooks]: WebhookPayload<Kind> }[keyof webhooks];

/** Why a delivery was refused. */
export type WebhookVerificationFailure =
  /** No Service-Signature header, or an empty one. */
  | 'missing_header'
  /** The header is not `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`. */
  | 'malformed_header'
  /** No `v1=` signature matches the HMAC of `<t>.<raw body>` with the secret. */
  | 'signature_mismatch'
  /** The signed timestamp is older than the tolerance (a replay, or a delivery held too long). */
  | 'timestamp_too_old'
  /** The signed timestamp is further in the future than the tolerance (a clock far off). */
  | 'timestamp_in_future'
  /** The signature holds but the body is not a JSON webhook envelope. */
  | 'invalid_body';

/** A delivery that must not be trusted; `reason` says why. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';

  constructor(
    readonly reason: WebhookVerificationFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface VerifyWebhookOptions {
  /** The endpoint's signing secret (`whsec_…`), as shown when the endpoint was made or rolled. */
  secret: string;
  /** The Service-Signature header as received (Node gives `string | string[] | undefined`). */
  header: string | readonly string[] | null | undefined;
  /** The raw request body, before any JSON parsing: the exact bytes (Buffer) or their UTF-8 text. */
  body: string | Buffer;
  /** How old (and how far in the future) the signed timestamp may be; the specification's 300 s. */
  toleranceSeconds?: number;
  /** The current time; `new Date()` when absent. */
  now?: Date;
}

const TIMESTAMP = /^\d{1,15}$/;
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

interface SignatureHeader {
  /** `t` as sent: what was signed. */
  t: string;
  timestamp: number;
  signatures: string[];
}

/**
 * Parses `t=<unix seconds>,v1=<hex>`: exactly one `t`, at least one `v1` (two for 24 hours after the
 * endpoint's secret was rolled: one per secret). Other schemes (`v0=`, a future `v2=`) are ignored.
 */
function parseSignatureHeader(header: string): SignatureHeader {
  let t: string | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator <= 0) {
      throw new WebhookVerificationError(
        'malformed_header',
        `Service-Signature has a part without a key: "${part}"`,
      );
    }
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 't') {
      if (t !== undefined) {
        throw new WebhookVerificationError('malformed_header', 'Service-Signature has more than one t=');
      }
      if (!TIMESTAMP.test(value)) {
        throw new WebhookVerificationError(
          'malformed_header',
          'Service-Signature t= is not a unix time in seconds',
        );
      }
      t = value;
    } else if (key === 'v1') {
      signatures.push(value);
    }
  }
  if (t === undefined) {
    throw new WebhookVerificationError('malformed_header', 'Service-Signature has no t=');
  }
  if (signatures.length === 0) {
    throw new WebhookVerificationError('malformed_header', 'Service-Signature has no v1=');
  }
  return { t, timestamp: Number(t), signatures };
}

/** The one header value (a list of them, as raw headers give, must hold exactly one). */
function singleHeader(value: VerifyWebhookOptions['header']): string | undefined {
  if (value === null || value === undefined || typeof value === 'string') return value ?? undefined;
  if (value.length > 1) {
    throw new WebhookVerificationError('malformed_header', 'more than one Service-Signature header');
  }
  return value[0];
}

function envelopeOf(body: string | Buffer): WebhookEnvelope {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch {
    throw new WebhookVerificationError('invalid_body', 'the body is not JSON');
  }
  const envelope = parsed as Partial<WebhookEnvelope> | null;
  if (
    envelope === null ||
    typeof envelope !== 'object' ||
    Array.isArray(envelope) ||
    typeof envelope.id !== 'string' ||
    typeof envelope.type !== 'string' ||
    typeof envelope.created_at !== 'string' ||
    envelope.data === null ||
    typeof envelope.data !== 'object'
  ) {
    throw new WebhookVerificationError(
      'invalid_body',
      'the body is not a webhook envelope (id, type, created_at, data)',
    );
  }
  return envelope as WebhookEnvelope;
}

/**
 * Checks an outbound webhook as the specification says (Events, Signature verification), and returns
 * its envelope, typed as the API document describes each kind (narrow it on `type`); throws a
 * `WebhookVerificationError` naming the reason otherwise:
 *
 * 1. parses Service-Signature into `t` and every `v1` (after a secret roll there are two for 24 hours,
 *    one per secret: either may match);
 * 2. computes the hex HMAC-SHA256 of `<t>.<raw body>` with the secret, over the raw body (the bytes
 *    received, before JSON parsing);
 * 3. compares it with each `v1` in constant time (`crypto.timingSafeEqual`);
 * 4. refuses a timestamp older than `toleranceSeconds` (300 by default), and one further than that in
 *    the future.
 *
 * ```ts
 * const event = verifyWebhook({ secret, header: request.headers['service-signature'], body: rawBody });
 * if (event.type === 'message.failed') console.log(event.data.failure);
 * ```
 */
export function verifyWebhook(options: VerifyWebhookOptions): WebhookEvent {
  const { secret, body, toleranceSeconds = 300, now = new Date() } = options;
  if (typeof secret !== 'string' || secret === '') {
    throw new TypeError('verifyWebhook: secret must be the non-empty signing secret of the endpoint');
  }
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) {
    throw new TypeError('verifyWebhook: body must be the raw body, a string or a Buffer');
  }
  if (!Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new TypeError('verifyWebhook: toleranceSeconds must be a finite number of seconds, 0 or more');
  }
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) {
    throw new TypeError('verifyWebhook: now must be a valid Date');
  }
  const header = singleHeader(options.header);
  if (header === undefined || header.trim() === '') {
    throw new WebhookVerificationError('missing_header', 'no Service-Signature header');
  }

  // 1. t and every v1.
  const { t, timestamp, signatures } = parseSignatureHeader(header);

  // 2. HMAC-SHA256 of "<t>.<raw body>" with the secret.
  const expected = createHmac('sha256', secret).update(`${t}.`, 'utf8').update(body).digest();

  // 3. Constant time, against every v1 (no early exit: which one matched, if any, leaks nothing).
  let matched = false;
  for (const signature of signatures) {
    if (!HEX_SHA256.test(signature)) continue;
    if (timingSafeEqual(Buffer.from(signature, 'hex'), expected)) matched = true;
  }
  if (!matched) {
    throw new WebhookVerificationError(
      'signature_mismatch',
      'no v1 signature matches the body and the secret (wrong secret, or a body changed after signing)',
    );
  }

  // 4. The timestamp, signed with the body, within the tolerance.
  const age = Math.floor(now.getTime() / 1000) - timestamp;
  if (age > toleranceSeconds) {
    throw new WebhookVerificationError(
      'timestamp_too_old',
      `the signature is ${age} s old, more than the ${toleranceSeconds} s tolerated`,
    );
  }
  if (-age > toleranceSeconds) {
    throw new WebhookVerificationError(
      'timestamp_in_future',
      `the signature is dated ${-age} s ahead, more than the ${toleranceSeconds} s tolerated`,
    );
  }
  // Checked to be an envelope; the rest is as the document says, vouched for by the signature.
  return envelopeOf(body) as unknown as WebhookEvent;
}
