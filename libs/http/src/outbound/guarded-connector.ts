import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction, Socket } from 'node:net';

import { buildConnector } from 'undici';

import { ipLiteral, type AddressPolicy } from './address-policy';
import { errorCodeOf } from './error-code';

/** A delivery refused because its host is, or resolves to, an address that is not allowed. */
export class BlockedAddressError extends Error {
  readonly code = 'E_WEBHOOK_ADDRESS_BLOCKED';

  constructor(message: string) {
    super(message);
    this.name = 'BlockedAddressError';
  }
}

/** Whether a failed call was refused by the guard (undici may hand the error on wrapped in a cause). */
export function isBlockedAddress(error: unknown): boolean {
  return error instanceof BlockedAddressError || errorCodeOf(error) === 'E_WEBHOOK_ADDRESS_BLOCKED';
}

/** `dns.lookup` with `all: true`; tests pass their own to make a name resolve to a chosen address. */
export type Resolver = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemResolver: Resolver = (hostname, options, callback) => dnsLookup(hostname, options, callback);

/**
 * A `lookup` for net/tls.connect that resolves every address of the name and refuses the connection
 * when any of them is not allowed: one private answer among public ones is enough for a rebinding
 * attack to pick it.
 */
export function guardedLookup(policy: AddressPolicy, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      if (addresses.length === 0) {
        const notFound: NodeJS.ErrnoException = new Error(`${hostname} has no address`);
        notFound.code = 'ENOTFOUND';
        return callback(notFound, '', 0);
      }
      for (const { address } of addresses) {
        const verdict = policy.check(address);
        if (!verdict.allowed) {
          return callback(new BlockedAddressError(`${hostname} resolves to ${verdict.reason}`), '', 0);
        }
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      return callback(null, first!.address, first!.family);
    });
  };
}

export interface GuardedConnectorOptions {
  policy: AddressPolicy;
  resolve?: Resolver;
  connectTimeoutMs: number;
  /** Trusted roots instead of Node's (which NODE_EXTRA_CA_CERTS extends); for in-process tests. */
  ca?: string | string[];
}

/**
 * undici's connector with the SSRF guard of extensions §4 on both sides of the connection: an IP
 * literal is checked before anything happens, every address a name resolves to is checked by the
 * lookup, and the address the socket actually connected to is checked again before a byte is sent.
 * TLS is always verified.
 */
export function guardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const { policy } = options;
  const base = buildConnector({
    lookup: guardedLookup(policy, options.resolve),
    timeout: options.connectTimeoutMs,
    rejectUnauthorized: true,
    ...(options.ca !== undefined ? { ca: options.ca } : {}),
  } as buildConnector.BuildOptions);
  return (connectOptions, callback) => {
    const literal = ipLiteral(connectOptions.hostname);
    if (literal !== undefined) {
      const verdict = policy.check(literal);
      if (!verdict.allowed) return callback(new BlockedAddressError(verdict.reason), null);
    }
    return base(connectOptions, (error, socket) => {
      if (error !== null) return callback(error, null);
      const remote = (socket as Socket).remoteAddress;
      const verdict = remote
        ? policy.check(remote)
        : ({ allowed: false, reason: 'the connection has no remote address' } as const);
      if (!verdict.allowed) {
        socket.destroy();
        return callback(new BlockedAddressError(`connected to ${verdict.reason}`), null);
      }
      return callback(null, socket);
    });
  };
}
