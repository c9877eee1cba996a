import {
  createDecipheriv,
  createECDH,
  createHmac,
  createPublicKey,
  randomBytes,
  verify,
  type ECDH,
} from 'node:crypto';

import { FakeHttpServer, type FakeReply, type RecordedRequest } from './fake-http-server';

export interface BrowserSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface DeliveredPush {
  endpoint: string;
  ttl: number;
  /** The decrypted payload. */
  payload: string;
  /** The VAPID JWT's claims. */
  claims: { aud: string; exp: number; sub: string };
}

interface Browser {
  ecdh: ECDH;
  auth: Buffer;
  /** The VAPID public key the subscription was made with (applicationServerKey). */
  applicationServerKey: string;
  gone: boolean;
}

const hmac = (key: Buffer, data: Buffer): Buffer => createHmac('sha256', key).update(data).digest();

/** RFC 8291 + RFC 8188: the browser's side of a Web Push payload (one aes128gcm record). */
function decryptPayload(body: Buffer, browser: Browser): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const serverKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const shared = browser.ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browser.ecdh.getPublicKey(), serverKey]);
  const ikm = hmac(hmac(browser.auth, shared), Buffer.concat([keyInfo, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01', 'binary')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01', 'binary')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  const delimiter = padded.lastIndexOf(2);
  return padded.subarray(0, delimiter).toString('utf8');
}

/** Verifies an ES256 JWT with the uncompressed P-256 key `k`; its claims, or why not. */
function verifyVapidJwt(
  token: string,
  publicKey: Buffer,
): { aud: string; exp: number; sub: string } | string {
  const [header, payload, signature] = token.split('.');
  if (header === undefined || payload === undefined || signature === undefined) return 'malformed JWT';
  if (publicKey.length !== 65 || publicKey[0] !== 4) return 'k is not an uncompressed P-256 key';
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: publicKey.subarray(1, 33).toString('base64url'),
      y: publicKey.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const valid = verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!valid) return 'JWT signature does not verify';
  if ((JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: string }).alg !== 'ES256') {
    return 'JWT alg must be ES256';
  }
  return JSON.parse(Buffer.from(payload, 'base64url').toString()) as {
    aud: string;
    exp: number;
    sub: string;
  };
}

/**
 * A push service (RFC 8030 with VAPID, RFC 8292) over HTTPS: checks the `vapid t=…, k=…`
 * Authorization (ES256 JWT, audience = the service's origin, not expired, k = the subscription's
 * applicationServerKey), `Content-Encoding: aes128gcm` and TTL; decrypts what it delivers.
 */
export class FakePushService {
  readonly server = new FakeHttpServer((request) => this.handle(request));
  readonly delivered: DeliveredPush[] = [];
  private readonly browsers = new Map<string, Browser>();

  async start(tls: { cert: string; key: string }): Promise<this> {
    await this.server.start(tls);
    return this;
  }

  /** What a browser's PushManager.subscribe() gives, for a site whose VAPID public key is `applicationServerKey`. */
  subscribe(applicationServerKey: string): BrowserSubscription {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    const id = randomBytes(12).toString('hex');
    this.browsers.set(id, { ecdh, auth, applicationServerKey, gone: false });
    return {
      endpoint: `${this.server.baseUrl}/push/${id}`,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    };
  }

  /** The browser unsubscribed: the push service answers 410 Gone from now on. */
  unsubscribe(endpoint: string): void {
    const browser = this.browsers.get(endpoint.split('/').pop() ?? '');
    if (browser !== undefined) browser.gone = true;
  }

  private handle(request: RecordedRequest): FakeReply {
    const id = /^\/push\/([0-9a-f]+)$/.exec(request.path)?.[1];
    const browser = id !== undefined ? this.browsers.get(id) : undefined;
    if (request.method !== 'POST' || browser === undefined)
      return { status: 404, body: 'no such subscription' };
    if (browser.gone) return { status: 410, body: 'push subscription has unsubscribed or expired' };
    const authorization = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(
      request.headers['authorization'] ?? '',
    );
    if (authorization === null) return { status: 401, body: 'missing or malformed VAPID Authorization' };
    const claims = verifyVapidJwt(authorization[1]!, Buffer.from(authorization[2]!, 'base64url'));
    if (typeof claims === 'string') return { status: 401, body: claims };
    if (claims.aud !== this.server.baseUrl)
      return { status: 401, body: `JWT aud must be ${this.server.baseUrl}` };
    const now = Math.floor(Date.now() / 1000);
    if (!(claims.exp > now && claims.exp <= now + 24 * 3600))
      return { status: 401, body: 'JWT exp out of range' };
    if (authorization[2] !== browser.applicationServerKey) {
      return { status: 403, body: 'VAPID key does not match the subscription' };
    }
    if (request.headers['content-encoding'] !== 'aes128gcm') {
      return { status: 415, body: 'Content-Encoding must be aes128gcm' };
    }
    const ttl = Number(request.headers['ttl']);
    if (!Number.isInteger(ttl) || ttl < 0) return { status: 400, body: 'TTL header is required' };
    if (request.body.length > 4096) return { status: 413, body: 'payload too large' };
    let payload: string;
    try {
      payload = decryptPayload(request.body, browser);
    } catch {
      return { status: 400, body: 'payload could not be decrypted' };
    }
    this.delivered.push({ endpoint: `${this.server.baseUrl}${request.path}`, ttl, payload, claims });
    return {
      status: 201,
      headers: { location: `${this.server.baseUrl}/message/${randomBytes(8).toString('hex')}` },
    };
  }
}
