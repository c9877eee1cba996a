import { AddressPolicy } from './address-policy';

describe('the address policy', () => {
  const strict = new AddressPolicy();

  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['192.0.2.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fd00::1', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['2002:a00:1::', '6to4'],
  ])('refuses %s (%s)', (address, range) => {
    const verdict = strict.check(address);
    expect(verdict.allowed).toBe(false);
    expect(verdict.allowed ? '' : verdict.reason).toContain(range);
  });

  it.each(['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:93.184.216.34'])(
    'allows public unicast %s',
    (address) => {
      expect(strict.check(address)).toEqual({ allowed: true });
    },
  );

  it('refuses what is not an address at all', () => {
    expect(strict.check('example.com').allowed).toBe(false);
  });

  it('allows the networks of WEBHOOK_ALLOW_NETWORKS, mapped IPv6 forms included', () => {
    const policy = new AddressPolicy(['127.0.0.0/8', 'fd00::/8']);
    expect(policy.check('127.0.0.1').allowed).toBe(true);
    expect(policy.check('::ffff:127.0.0.1').allowed).toBe(true);
    expect(policy.check('fd12::1').allowed).toBe(true);
    expect(policy.check('10.0.0.1').allowed).toBe(false);
  });

  it('refuses a malformed network at construction', () => {
    expect(() => new AddressPolicy(['10.0.0.0/33'])).toThrow(/CIDR/);
    expect(() => new AddressPolicy(['nonsense'])).toThrow(/CIDR/);
  });
});
