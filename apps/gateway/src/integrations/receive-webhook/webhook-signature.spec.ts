import { signatureMatches, signBody } from './webhook-signature';

const SECRET = 'whsec_test-secret';
const BODY = Buffer.from('{"event":"order.paid","phone":"+14155550100"}');
const HEX = signBody(BODY, SECRET);

describe('signatureMatches', () => {
  it.each([
    ['the bare digest', HEX],
    ['the digest after sha256=', `sha256=${HEX}`],
    ['an upper-case digest', HEX.toUpperCase()],
    ['an upper-case prefix and digest', `SHA256=${HEX.toUpperCase()}`],
    ['surrounding spaces', `  sha256=${HEX} `],
  ])('accepts %s', (_case, header) => {
    expect(signatureMatches(header, BODY, SECRET)).toBe(true);
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['the prefix alone', 'sha256='],
    ['a digest one digit short', HEX.slice(1)],
    ['a digest one digit long', `${HEX}0`],
    ['a digest that is not hex', `${HEX.slice(2)}zz`],
    ['another prefix', `sha1=${HEX}`],
    ['two digests', `${HEX},${HEX}`],
    ['the digest of another body', signBody(`${BODY.toString()} `, SECRET)],
    ['the digest under another secret', signBody(BODY, `${SECRET}x`)],
  ])('refuses %s', (_case, header) => {
    expect(signatureMatches(header, BODY, SECRET)).toBe(false);
  });
});
