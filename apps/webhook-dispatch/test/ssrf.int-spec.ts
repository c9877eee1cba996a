import { lookup, type LookupAddress } from 'node:dns';
import { randomUUID } from 'node:crypto';

import { deterministicId, WEBHOOK_REQUEST_TYPES, type RequestRejectedV1 } from '@cms/contracts';

import type { Resolver } from '@cms/http';
import { Receiver } from './receiver.fixture';
import { sleep } from './support/wait';
import { makeTestCertificates, type TestCertificates } from './tls.fixture';
import { DispatchHarness, workspaceId } from './webhook-dispatch.harness';

/** Names under .test resolve as the table says (as a hostile DNS zone could); the rest as usual. */
const ZONE: Record<string, LookupAddress[]> = {
  'private.test': [{ address: '10.1.2.3', family: 4 }],
  'metadata.test': [{ address: '169.254.169.254', family: 4 }],
  'cgnat.test': [{ address: '100.64.1.1', family: 4 }],
  'ula.test': [{ address: 'fd12:3456::1', family: 6 }],
  'mapped.test': [{ address: '::ffff:127.0.0.1', family: 6 }],
  'mixed.test': [
    { address: '93.184.216.34', family: 4 },
    { address: '10.0.0.5', family: 4 },
  ],
};

const resolve: Resolver = (hostname, options, callback) => {
  if (hostname.endsWith('.test')) {
    const addresses = ZONE[hostname];
    if (addresses) return callback(null, addresses);
    const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
    error.code = 'ENOTFOUND';
    return callback(error, []);
  }
  lookup(hostname, options, callback);
};

let tls: TestCertificates;
let harness: DispatchHarness;
let hooks: Receiver;

beforeAll(async () => {
  tls = makeTestCertificates();
  hooks = await Receiver.start(tls);
  // No WEBHOOK_ALLOW_NETWORKS: only public unicast addresses may be delivered to.
  harness = await DispatchHarness.start({ tls, resolve });
});

afterAll(async () => {
  await harness?.stop();
  await hooks?.close();
  tls?.remove();
});

describe('an endpoint URL naming an address that is not public', () => {
  it.each([
    ['https://127.0.0.1/hooks', '127.0.0.1'],
    ['https://2130706433/hooks', '127.0.0.1'],
    ['https://0x7f.1/hooks', '127.0.0.1'],
    ['https://[::ffff:127.0.0.1]/hooks', '::ffff:7f00:1'],
    ['https://[::1]/hooks', '::1'],
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['https://10.0.0.1/hooks', '10.0.0.1'],
    ['https://100.64.0.1/hooks', '100.64.0.1'],
    ['https://[fd00::1]/hooks', 'fd00::1'],
  ])('is refused at creation with 422: %s', async (url, address) => {
    const ws = workspaceId();
    const outcome = await harness.request(ws, WEBHOOK_REQUEST_TYPES.endpointCreate, {
      endpoint_id: randomUUID(),
      url,
      event_types: ['consent.granted'],
      secret_sealed: 'v1.' + 'A'.repeat(60),
    });
    expect(outcome.type).toBe('request.rejected');
    const answer = outcome.data as RequestRejectedV1;
    expect(answer.status).toBe(422);
    expect(answer.errors[0]).toMatchObject({
      title: 'Validation Error',
      source: { pointer: '/data/attributes/url' },
      detail: expect.stringContaining(address),
    });
  });

  it('is refused when an endpoint is changed to it', async () => {
    const ws = workspaceId();
    const { id } = await harness.createEndpoint(ws, 'https://hooks.example.com/cms');
    const outcome = await harness.request(ws, WEBHOOK_REQUEST_TYPES.endpointUpdate, {
      endpoint_id: id,
      url: 'https://[::ffff:169.254.169.254]/',
    });
    expect((outcome.data as RequestRejectedV1).status).toBe(422);
    expect((await harness.endpoint(ws, id)).url).toBe('https://hooks.example.com/cms');
  });
});

describe('a host name resolving to an address that is not public', () => {
  it.each([
    ['localhost (loopback)', () => hooks.url(), /127\.0\.0\.1.*loopback/],
    ['a name for 10/8', () => 'https://private.test/hooks', /10\.1\.2\.3.*private/],
    ['a name for the metadata service', () => 'https://metadata.test/', /169\.254\.169\.254.*linkLocal/],
    ['a name for 100.64/10', () => 'https://cgnat.test/', /100\.64\.1\.1.*carrierGradeNat/],
    ['a name for an IPv6 ULA', () => 'https://ula.test/', /fd12:3456::1.*uniqueLocal/],
    ['a name for an IPv4-mapped loopback', () => 'https://mapped.test/', /::ffff:127\.0\.0\.1.*loopback/],
    [
      'a name with one private address among public ones',
      () => 'https://mixed.test/',
      /10\.0\.0\.5.*private/,
    ],
  ])('is accepted at creation but never connected to: %s', async (_name, url, reason) => {
    const ws = workspaceId();
    const { id, outcome } = await harness.createEndpoint(ws, url());
    expect(outcome.type).toBe('request.accepted');
    const fact = await harness.consent(ws, { status: 'granted' });
    const delivery = await harness.delivery(
      ws,
      id,
      deterministicId(fact.id, id),
      (d) => d.attempts[0]?.error?.startsWith('address') === true,
    );
    expect(delivery.status).toBe('pending');
    expect(delivery.attempts[0]).toMatchObject({ attempt: 1, response_status: null, response_body: null });
    expect(delivery.attempts[0]!.error).toMatch(/^address not allowed: /);
    expect(delivery.attempts[0]!.error).toMatch(reason);
  });

  it('never reached the receiver behind localhost', async () => {
    await sleep(200);
    expect(hooks.requests).toEqual([]);
  });

  it('fails an attempt with a DNS error when the name does not resolve', async () => {
    const ws = workspaceId();
    const { id } = await harness.createEndpoint(ws, 'https://nowhere.test/hooks');
    const fact = await harness.consent(ws, { status: 'granted' });
    const delivery = await harness.delivery(
      ws,
      id,
      deterministicId(fact.id, id),
      (d) => d.attempts[0]?.error?.startsWith('DNS') === true,
    );
    expect(delivery.attempts[0]!.error).toBe('DNS: the host could not be resolved (ENOTFOUND)');
  });
});
