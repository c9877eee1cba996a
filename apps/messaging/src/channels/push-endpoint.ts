import { AddressPolicy, ipLiteral } from '@cms/http';

/**
 * What is wrong with a push subscription's endpoint when it is given: it must be an https URL without
 * user information, and a host written as an IP address must be one the address policy allows
 * (extensions §4: public unicast, or inside WEBHOOK_ALLOW_NETWORKS). Names are resolved and checked
 * when a push is sent.
 */
export function pushEndpointProblem(endpoint: string, policy: AddressPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'endpoint must be an https URL';
  }
  if (url.protocol !== 'https:') return 'endpoint must be an https URL';
  if (url.username !== '' || url.password !== '') return 'endpoint must not carry user information';
  const address = ipLiteral(url.hostname);
  if (address === undefined) return undefined;
  const verdict = policy.check(address);
  return verdict.allowed ? undefined : `endpoint must be at a public address: ${verdict.reason}`;
}
