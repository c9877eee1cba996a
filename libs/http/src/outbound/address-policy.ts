import { isIP } from 'node:net';

import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

/** Global unicast IPv6 (2000::/3); ipaddr.js calls everything it has no name for "unicast". */
const GLOBAL_UNICAST_V6: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('2000::'), 3];

/** Parses `WEBHOOK_ALLOW_NETWORKS` entries; throws naming the first that is not a CIDR. */
export function parseNetworks(cidrs: readonly string[]): Array<[Address, number]> {
  return cidrs.map((cidr) => {
    try {
      return ipaddr.parseCIDR(cidr);
    } catch {
      throw new Error(`${JSON.stringify(cidr)} is not a CIDR such as 10.0.0.0/8 or fd00::/8`);
    }
  });
}

/** `[::1]` (a URL's host) or `::1`: the address without brackets, or undefined when it is a name. */
export function ipLiteral(host: string): string | undefined {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return isIP(bare) === 0 ? undefined : bare;
}

/**
 * Which addresses a service may call on a customer's word (webhook endpoints, push endpoints, SMTP
 * hosts; extensions §4 and §9): public unicast only, unless inside one of the allowed networks. An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is judged as the IPv4 address
 * it carries; NAT64, 6to4 and Teredo addresses, which can reach private IPv4 space, are not public.
 */
export class AddressPolicy {
  private readonly networks: Array<[Address, number]>;

  constructor(allowNetworks: readonly string[] = []) {
    this.networks = parseNetworks(allowNetworks);
  }

  check(address: string): AddressVerdict {
    const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
    if (!ipaddr.isValid(bare)) return { allowed: false, reason: `${address} is not an IP address` };
    let ip: Address = ipaddr.parse(bare);
    if (ip instanceof ipaddr.IPv6 && ip.isIPv4MappedAddress()) ip = ip.toIPv4Address();
    if (this.networks.some(([network, bits]) => network.kind() === ip.kind() && ip.match(network, bits))) {
      return { allowed: true };
    }
    const range = ip.range();
    if (range !== 'unicast') {
      return { allowed: false, reason: `${address} is not a public unicast address (${range})` };
    }
    if (ip instanceof ipaddr.IPv6 && !ip.match(GLOBAL_UNICAST_V6)) {
      return { allowed: false, reason: `${address} is not a global unicast address` };
    }
    return { allowed: true };
  }
}
