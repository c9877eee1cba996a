import { lookup } from 'node:dns/promises';

import { AddressPolicy, ipLiteral } from '@cms/http';

/**
 * Where the service may send a push or open an SMTP connection (§9, the outbound rules of §4): every
 * address the host resolves to must pass the address policy (public unicast, or inside
 * WEBHOOK_ALLOW_NETWORKS).
 */
export function publicEndpointCheck(allowNetworks: string[]): (url: string) => Promise<void> {
  const policy = new AddressPolicy(allowNetworks);
  return async (raw: string) => {
    const { hostname } = new URL(raw);
    const literal = ipLiteral(hostname);
    const addresses =
      literal !== undefined
        ? [literal]
        : (await lookup(hostname, { all: true })).map((entry) => entry.address);
    for (const address of addresses) {
      const verdict = policy.check(address);
      if (!verdict.allowed) throw new Error(`${hostname} is not a public address: ${verdict.reason}`);
    }
  };
}
