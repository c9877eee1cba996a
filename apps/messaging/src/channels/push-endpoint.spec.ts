import { addressRefusal, pushEndpointProblem } from './push-endpoint';

describe('push endpoints', () => {
  it('takes https URLs at names and at public addresses', () => {
    expect(pushEndpointProblem('https://fcm.googleapis.com/fcm/send/abc', [])).toBeUndefined();
    expect(pushEndpointProblem('https://8.8.8.8/push', [])).toBeUndefined();
    expect(pushEndpointProblem('https://[2001:4860:4860::8888]/push', [])).toBeUndefined();
  });

  it('refuses other schemes, user information and private, loopback or mapped addresses', () => {
    expect(pushEndpointProblem('http://push.example.com/x', [])).toBe('endpoint must be an https URL');
    expect(pushEndpointProblem('not a url', [])).toBe('endpoint must be an https URL');
    expect(pushEndpointProblem('https://user:pw@push.example.com/x', [])).toMatch(/user information/);
    expect(pushEndpointProblem('https://127.0.0.1:8443/x', [])).toMatch(/loopback/);
    expect(pushEndpointProblem('https://10.1.2.3/x', [])).toMatch(/private/);
    expect(pushEndpointProblem('https://[::1]/x', [])).toMatch(/loopback/);
    expect(pushEndpointProblem('https://[::ffff:192.168.0.1]/x', [])).toMatch(/private/);
    expect(pushEndpointProblem('https://[fd00::1]/x', [])).toMatch(/uniqueLocal/);
  });

  it('lets the allowed networks through', () => {
    expect(pushEndpointProblem('https://127.0.0.1:8443/x', ['127.0.0.0/8'])).toBeUndefined();
    expect(addressRefusal('10.1.2.3', ['10.0.0.0/8'])).toBeUndefined();
    expect(addressRefusal('10.1.2.3', ['fd00::/8'])).toMatch(/private/);
  });
});
