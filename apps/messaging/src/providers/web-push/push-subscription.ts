import type { PushSubscriptionKeys } from '../provider';
import { field } from '../provider-http';

/** One problem of a PushSubscription, its JSON pointer relative to the subscription object. */
export interface SubscriptionProblem {
  pointer: string;
  detail: string;
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

function decodedLength(value: unknown): number | undefined {
  if (typeof value !== 'string' || !BASE64URL.test(value)) return undefined;
  return Buffer.from(value, 'base64url').length;
}

/**
 * Checks a browser's PushSubscription JSON (`endpoint`, `keys.p256dh`, `keys.auth`): an https
 * endpoint without credentials, p256dh an uncompressed P-256 point (65 bytes, base64url) and auth a
 * 16-byte secret. Whether the endpoint's address is public is the SSRF policy's to say, not this.
 */
export function validatePushSubscription(
  json: unknown,
):
  | { subscription: PushSubscriptionKeys; problems: [] }
  | { subscription?: undefined; problems: SubscriptionProblem[] } {
  const problems: SubscriptionProblem[] = [];
  const endpoint = field(json, 'endpoint');
  let url: URL | undefined;
  try {
    url = typeof endpoint === 'string' ? new URL(endpoint) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined) problems.push({ pointer: '/endpoint', detail: 'endpoint must be a URL' });
  else if (url.protocol !== 'https:')
    problems.push({ pointer: '/endpoint', detail: 'endpoint must be https' });
  else if (url.username !== '' || url.password !== '') {
    problems.push({ pointer: '/endpoint', detail: 'endpoint must not carry credentials' });
  }
  const keys = field(json, 'keys');
  const p256dh = field(keys, 'p256dh');
  const auth = field(keys, 'auth');
  const p256dhBytes = decodedLength(p256dh);
  if (p256dhBytes !== 65 || Buffer.from(p256dh as string, 'base64url')[0] !== 0x04) {
    problems.push({
      pointer: '/keys/p256dh',
      detail: 'keys.p256dh must be the base64url of an uncompressed P-256 public key (65 bytes)',
    });
  }
  if (decodedLength(auth) !== 16) {
    problems.push({ pointer: '/keys/auth', detail: 'keys.auth must be the base64url of 16 bytes' });
  }
  if (problems.length > 0) return { problems };
  return {
    subscription: { endpoint: endpoint as string, keys: { p256dh: p256dh as string, auth: auth as string } },
    problems: [],
  };
}
