import { lookup } from 'node:dns/promises';

import ipaddr from 'ipaddr.js';

/**
 * A push endpoint must be https to a public address (§9, the SSRF rules of §4), unless its address
 * is in one of `allowNetworks` (tests). Every address the host resolves to must pass.
 */
export function publicEndpointCheck(allowNetworks: string[]): (url: string) => Promise<void> {
  const allowed = allowNetworks.map((cidr) => ipaddr.parseCIDR(cidr));
  const isAllowed = (address: ipaddr.IPv4 | ipaddr.IPv6): boolean =>
    allowed.some(([range, bits]) => address.kind() === range.kind() && address.match([range, bits]));
  return async (raw: string) => {
    const url = new URL(raw);
    if (url.protocol !== 'https:') throw new Error(`push endpoint ${url.origin} is not https`);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const addresses = ipaddr.isValid(host)
      ? [host]
      : (await lookup(host, { all: true })).map((entry) => entry.address);
    for (const text of addresses) {
      const parsed = ipaddr.process(text);
      if (parsed.range() !== 'unicast' && !isAllowed(parsed)) {
        throw new Error(`push endpoint ${url.hostname} resolves to ${text}, which is not a public address`);
      }
    }
  };
}
