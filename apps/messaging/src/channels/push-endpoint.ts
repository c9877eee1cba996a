import { isIP } from 'node:net';

import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Global unicast IPv6 (2000::/3); ipaddr.js calls everything it has no name for "unicast". */
const GLOBAL_UNICAST_V6: [ipaddr.IPv6, number] = [ipaddr.IPv6.parse('2000::'), 3];

/**
 * Whether the service may connect to `address` (extensions §4, §9): public unicast only, unless inside
 * one of WEBHOOK_ALLOW_NETWORKS. An IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
 * Returns why not, or undefined when it may.
 */
export function addressRefusal(address: string, allowNetworks: readonly string[]): string | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(bare)) return `${address} is not an IP address`;
  let ip: Address = ipaddr.parse(bare);
  if (ip instanceof ipaddr.IPv6 && ip.isIPv4MappedAddress()) ip = ip.toIPv4Address();
  const allowed = allowNetworks.some((cidr) => {
    const [network, bits] = ipaddr.parseCIDR(cidr);
    return network.kind() === ip.kind() && ip.match(network, bits);
  });
  if (allowed) return undefined;
  const range = ip.range();
  if (range !== 'unicast') return `${address} is not a public unicast address (${range})`;
  if (ip instanceof ipaddr.IPv6 && !ip.match(GLOBAL_UNICAST_V6))
    return `${address} is not a global unicast address`;
  return undefined;
}

/**
 * What is wrong with a push subscription's endpoint when it is given: it must be an https URL without
 * credentials, and a host written as an IP address must be public (names are resolved and checked
 * when a push is sent).
 */
export function pushEndpointProblem(endpoint: string, allowNetworks: readonly string[]): string | undefined {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'endpoint must be an https URL';
  }
  if (url.protocol !== 'https:') return 'endpoint must be an https URL';
  if (url.username !== '' || url.password !== '') return 'endpoint must not carry user information';
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(host) === 0) return undefined;
  const refusal = addressRefusal(host, allowNetworks);
  return refusal === undefined ? undefined : `endpoint must be at a public address: ${refusal}`;
}
