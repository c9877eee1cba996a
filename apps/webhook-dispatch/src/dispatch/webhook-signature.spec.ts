import { verifySignature } from '../../test/support/signature-verifier';
import { signatureHeader } from './webhook-signature';

// Computed outside Node with `openssl dgst -sha256 -hmac <secret>` over "<t>.<body>".
const BODY =
  '{"id":"6f9c1b1e-8c49-4a4b-9a52-2f0b7f1f5e10","type":"consent.granted","created_at":"2026-03-01T12:00:00.000Z","data":{"channel":"sms","status":"granted","source":"api","contact":{"id":7,"external_id":null,"name":"Ada","phone":"+447700900123","email":null}}}';
const SECRET = 'whsec_k3mQn9XvB2pL7rT4yW8zA1cD5eF6gH0jK2lM3nP4qR5';
const PREVIOUS = 'whsec_oldOLDoldOLDoldOLDoldOLDoldOLDoldOLDoldOLD';
const T = 1700000000;
const GOLDEN = '593fa059f1acc5136ef634f980e62d0d03a907545d6e142fa58a65262abe46f8';
const GOLDEN_PREVIOUS = '99d71a9cd273a1f5ada10047846737865193c63df4eadef0ab2f8ef5fe98ac90';

describe('the Service-Signature header', () => {
  it('matches the golden vector: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">', () => {
    expect(signatureHeader(BODY, T, SECRET)).toBe(`t=${T},v1=${GOLDEN}`);
  });

  it('is accepted by a verifier written from the specification, and only for the exact bytes', () => {
    const header = signatureHeader(BODY, T, SECRET);
    expect(verifySignature(header, BODY, SECRET, T + 10)).toBe(true);
    expect(verifySignature(header, BODY.replace('"sms"', '"email"'), SECRET, T + 10)).toBe(false);
    expect(verifySignature(header, BODY, PREVIOUS, T + 10)).toBe(false);
    expect(verifySignature(header, BODY, SECRET, T + 301)).toBe(false);
  });

  it('carries a second v1 made with the previous secret after a roll, each verifying with its own secret', () => {
    const header = signatureHeader(BODY, T, SECRET, PREVIOUS);
    expect(header).toBe(`t=${T},v1=${GOLDEN},v1=${GOLDEN_PREVIOUS}`);
    expect(verifySignature(header, BODY, SECRET, T)).toBe(true);
    expect(verifySignature(header, BODY, PREVIOUS, T)).toBe(true);
  });
});
