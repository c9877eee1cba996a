import { AddressPolicy } from '@cms/http';

import { pushEndpointProblem } from './push-endpoint';

describe('push endpoints', () => {
  const policy = new AddressPolicy([]);

  it('takes https URLs at names and at public addresses', () => {
    expect(pushEndpointProblem('https://fcm.googleapis.com/fcm/send/abc', policy)).toBeUndefined();
    expect(pushEndpointProblem('https://8.8.8.8/push', policy)).toBeUndefined();
    expect(pushEndpointProblem('https://[2001:4860:4860::8888]/push', policy)).toBeUndefined();
  });

  it('refuses other schemes, user information and private, loopback or mapped addresses', () => {
    expect(pushEndpointProblem('http://push.example.com/x', policy)).toBe('endpoint must be an https URL');
    expect(pushEndpointProblem('not a url', policy)).toBe('endpoint must be an https URL');
    expect(pushEndpointProblem('https://user:pw@push.example.com/x', policy)).toMatch(/user information/);
    expect(pushEndpointProblem('https://127.0.0.1:8443/x', policy)).toMatch(/loopback/);
    expect(pushEndpointProblem('https://10.1.2.3/x', policy)).toMatch(/private/);
    expect(pushEndpointProblem('https://[::1]/x', policy)).toMatch(/loopback/);
    expect(pushEndpointProblem('https://[::ffff:192.168.0.1]/x', policy)).toMatch(/private/);
    expect(pushEndpointProblem('https://[fd00::1]/x', policy)).toMatch(/uniqueLocal/);
  });

  it('lets the allowed networks through', () => {
    expect(
      pushEndpointProblem('https://127.0.0.1:8443/x', new AddressPolicy(['127.0.0.0/8'])),
    ).toBeUndefined();
    expect(pushEndpointProblem('https://10.1.2.3/x', new AddressPolicy(['fd00::/8']))).toMatch(/private/);
  });
});
