import { AddressPolicy } from '@cms/http';

import { endpointUrlProblem } from './webhook-url';

describe('an endpoint URL at creation', () => {
  const strict = new AddressPolicy();

  it.each([
    ['http://example.com/hook', /https/],
    ['ftp://example.com/hook', /https/],
    ['https://user:pass@example.com/hook', /user name or password/],
    ['not a url', /white space/],
    ['not-a-url', /absolute/],
    ['https://2130706433/hook', /127\.0\.0\.1.*loopback/],
    ['https://0x7f.1/hook', /loopback/],
    ['https://[::ffff:127.0.0.1]/hook', /loopback/],
    ['https://169.254.169.254/latest/meta-data', /linkLocal/],
    ['https://10.0.0.1/hook', /private/],
    ['https://100.64.0.1/hook', /carrierGradeNat/],
    ['https://[fd00::1]/hook', /uniqueLocal/],
    ['https://[::1]:8443/hook', /loopback/],
  ])('refuses %s', (url, problem) => {
    expect(endpointUrlProblem(url, strict)).toMatch(problem);
  });

  it('accepts an https URL with a name (names are checked when delivering) or a public address', () => {
    expect(endpointUrlProblem('https://hooks.example.com/cms?x=1', strict)).toBeUndefined();
    expect(endpointUrlProblem('https://localhost:8443/hook', strict)).toBeUndefined();
    expect(endpointUrlProblem('https://93.184.216.34/hook', strict)).toBeUndefined();
  });
});
