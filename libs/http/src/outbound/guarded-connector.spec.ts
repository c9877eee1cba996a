import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:tls';

import { makeTestCertificates, type TestCertificates } from '@cms/testing';
import { AddressPolicy, type AddressVerdict } from './address-policy';
import { BlockedAddressError, guardedConnector, guardedLookup, type Resolver } from './guarded-connector';

let tls: TestCertificates;
let server: Server;
let port: number;
let connections = 0;

beforeAll(async () => {
  tls = makeTestCertificates();
  server = createServer({ cert: tls.cert, key: tls.key }, (socket) => {
    connections += 1;
    socket.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  tls.remove();
});

function connect(
  policy: AddressPolicy,
  hostname: string,
): Promise<{ error: Error | null; connected: boolean }> {
  const connector = guardedConnector({ policy, connectTimeoutMs: 2000, ca: tls.ca });
  return new Promise((resolve) => {
    connector(
      { hostname, host: `${hostname}:${port}`, protocol: 'https:', port: String(port) },
      (error, socket) => {
        socket?.destroy();
        resolve({ error, connected: socket !== null });
      },
    );
  });
}

/** A policy that says yes to the first question and no afterwards: a name that rebinds between checks. */
function rebinding(): AddressPolicy {
  let asked = 0;
  return {
    check: (address: string): AddressVerdict =>
      (asked += 1) === 1
        ? { allowed: true }
        : { allowed: false, reason: `${address} is not a public unicast address (test)` },
  } as AddressPolicy;
}

describe('the guarded connector', () => {
  it('connects, with TLS verified, when the address is allowed', async () => {
    const result = await connect(new AddressPolicy(['127.0.0.0/8']), 'localhost');
    expect(result).toEqual({ error: null, connected: true });
  });

  it('checks the address the socket actually connected to, even after the lookup allowed it', async () => {
    const result = await connect(rebinding(), 'localhost');
    expect(result.connected).toBe(false);
    expect(result.error).toBeInstanceOf(BlockedAddressError);
    expect(result.error?.message).toMatch(/^connected to 127\.0\.0\.1 is not a public unicast address/);
  });

  it('refuses an IP literal before connecting, and a name that resolves to a refused address', async () => {
    const before = connections;
    const literal = await connect(new AddressPolicy(), '127.0.0.1');
    expect(literal.error).toBeInstanceOf(BlockedAddressError);
    const name = await connect(new AddressPolicy(), 'localhost');
    expect(name.error).toBeInstanceOf(BlockedAddressError);
    expect(connections).toBe(before);
  });
});

describe('the guarded lookup', () => {
  const answers: LookupAddress[] = [
    { address: '93.184.216.34', family: 4 },
    { address: '10.0.0.7', family: 4 },
  ];
  const resolver: Resolver = (_hostname, _options, callback) => callback(null, answers);

  it('refuses a name when any one of its addresses is not allowed', async () => {
    const error = await new Promise<Error | null>((resolve) =>
      guardedLookup(new AddressPolicy(), resolver)('mixed.example', { all: true }, (failure) =>
        resolve(failure),
      ),
    );
    expect(error).toBeInstanceOf(BlockedAddressError);
    expect(error?.message).toMatch(/10\.0\.0\.7/);
  });

  it('answers in the form asked for when every address is allowed', async () => {
    const policy = new AddressPolicy(['10.0.0.0/8']);
    const single = await new Promise<unknown[]>((resolve) =>
      guardedLookup(policy, resolver)('mixed.example', {}, (...args) => resolve(args)),
    );
    expect(single).toEqual([null, '93.184.216.34', 4]);
    const all = await new Promise<unknown[]>((resolve) =>
      guardedLookup(policy, resolver)('mixed.example', { all: true }, (...args) => resolve(args)),
    );
    expect(all).toEqual([null, answers]);
  });
});
