import { webhookUrlProblem } from '@cms/contracts';

import { ipLiteral, type AddressPolicy } from '@cms/http';

/**
 * Why `url` cannot be an endpoint, or undefined: the syntactic rules of the contract (https, a host,
 * no credentials) and, for a host written as an IP address, the address policy. A host name is
 * resolved and checked at every delivery instead, where the answer can have changed.
 */
export function endpointUrlProblem(url: string, policy: AddressPolicy): string | undefined {
  const problem = webhookUrlProblem(url);
  if (problem !== undefined) return problem;
  // The WHATWG parser already turned 2130706433, 0x7f.1 and [::ffff:127.0.0.1] into canonical addresses.
  const literal = ipLiteral(new URL(url).hostname);
  if (literal === undefined) return undefined;
  const verdict = policy.check(literal);
  return verdict.allowed ? undefined : `url must point to a public address: ${verdict.reason}`;
}
