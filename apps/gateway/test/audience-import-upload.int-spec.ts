import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { MAX_IMPORT_FILE_BYTES } from '@cms/contracts';
import { eventually } from '@cms/testing';

import { ADMIN_TOKEN, startHarness, type Harness } from './gateway.harness';

type Data = { data: Record<string, unknown> };
type Errors = {
  errors: Array<{ status: string; title: string; detail: string; source?: { pointer: string } }>;
};

/** An upload as the segments service received it from the gateway. */
interface Received {
  target: string;
  headers: IncomingMessage['headers'];
  bytes: number;
  sha256: string;
  /** The body, when it was small enough to keep. */
  text: string | undefined;
  /** The gateway broke the upload off before its end. */
  aborted: boolean;
}

/** What the fake answers a complete upload with. */
type Verdict = (received: Received) => { status: number; body: unknown };

const PREVIEW = {
  path: 'upl_0123456789abcdef0123456789abcdef',
  columns: ['phone', 'email'],
  sample_rows: [{ phone: '+15005550001', email: 'a@example.com' }],
  row_count: 1,
  delimiter: ',',
};

/**
 * Stands in for the segments service's internal port: reads each upload as it streams in (keeping its
 * size and digest, never the whole of a big one), says when the first bytes of one arrived, and answers
 * by `verdict`.
 */
class FakeSegments {
  readonly received: Received[] = [];
  verdict: Verdict = () => ({ status: 201, body: { data: PREVIEW } });
  private firstBytes: Array<() => void> = [];
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((request, response) => this.take(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Resolves when the next upload's first bytes arrive here. */
  nextFirstBytes(): Promise<void> {
    return new Promise((resolve) => this.firstBytes.push(resolve));
  }

  private take(request: IncomingMessage, response: ServerResponse): void {
    const hash = createHash('sha256');
    const kept: Buffer[] = [];
    let bytes = 0;
    let done = false;
    const finish = (aborted: boolean): void => {
      if (done) return;
      done = true;
      const received: Received = {
        target: request.url ?? '/',
        headers: request.headers,
        bytes,
        sha256: hash.digest('hex'),
        text: bytes <= 64 * 1024 ? Buffer.concat(kept).toString('utf8') : undefined,
        aborted,
      };
      this.received.push(received);
      if (aborted) return;
      const { status, body } = this.verdict(received);
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    request.on('data', (chunk: Buffer) => {
      if (bytes === 0) for (const resolve of this.firstBytes.splice(0)) resolve();
      bytes += chunk.length;
      hash.update(chunk);
      if (bytes <= 64 * 1024) kept.push(chunk);
    });
    request.on('end', () => finish(false));
    request.on('close', () => finish(!request.complete));
  }
}

const segments = new FakeSegments();
let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ SEGMENTS_URL: await segments.start() });
}, 60_000);

afterAll(async () => {
  await harness?.stop();
  await segments.stop();
});

async function tenant(
  plan = 'pro',
  permissions = ['read', 'create', 'update', 'delete'],
): Promise<{ workspaceId: number; key: string }> {
  const workspace = await harness.call('POST', '/admin/v1/workspaces', {
    token: ADMIN_TOKEN,
    body: { name: 'Acme', plan },
  });
  const workspaceId = (workspace.body as Data).data.id as number;
  const key = await harness.call('POST', `/admin/v1/workspaces/${workspaceId}/api-keys`, {
    token: ADMIN_TOKEN,
    body: { name: 'k', permissions },
  });
  return { workspaceId, key: (key.body as Data).data.key as string };
}

const BOUNDARY = 'cms-test-boundary-7d1c';
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

type Part = { name: string; filename?: string; content: string | Buffer | AsyncIterable<Buffer> };

/** A multipart/form-data body made part by part, each part's content streamed as given. */
async function* form(parts: Part[]): AsyncIterable<Buffer> {
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const type = part.filename === undefined ? '' : 'Content-Type: text/csv\r\n';
    yield Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`);
    if (typeof part.content === 'string' || Buffer.isBuffer(part.content)) yield Buffer.from(part.content);
    else yield* part.content;
    yield Buffer.from('\r\n');
  }
  yield Buffer.from(`--${BOUNDARY}--\r\n`);
}

async function* streamOf(body: string | AsyncIterable<Buffer>): AsyncIterable<Buffer> {
  if (typeof body === 'string') yield Buffer.from(body);
  else yield* body;
}

interface Sent {
  status: number;
  headers: Headers;
  body: unknown;
}

async function post(
  key: string | undefined,
  body: string | AsyncIterable<Buffer> | undefined,
  /** null: no Content-Type at all. */
  contentType: string | null = MULTIPART,
  path = '/api/v1/audience-import/preview',
): Promise<Sent> {
  const response = await fetch(`${harness.gateway.url}${path}`, {
    method: 'POST',
    headers: {
      ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
      ...(contentType === null ? {} : { 'content-type': contentType }),
    },
    // Sent as a stream even when it is a string, so that fetch adds no Content-Type of its own.
    ...(body === undefined ? {} : { body: streamOf(body) as RequestInit['body'], duplex: 'half' }),
  } as RequestInit);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? undefined : JSON.parse(text),
  };
}

/** The status, the pointer (or the detail) of each error, and whether the rate-limit headers came along. */
function refusal(sent: Sent): { status: number; at: string[]; limited: boolean } {
  return {
    status: sent.status,
    at: ((sent.body as Partial<Errors>).errors ?? []).map((error) => error.source?.pointer ?? error.detail),
    limited:
      sent.headers.get('x-ratelimit-limit') !== null && sent.headers.get('x-ratelimit-remaining') !== null,
  };
}

async function breakerState(): Promise<number> {
  const metrics = await harness.call('GET', '/metrics');
  const line = String(metrics.body)
    .split('\n')
    .find((text) => text.startsWith('cms_circuit_breaker_state{') && text.includes('upstream="segments"'));
  return Number(line?.split(' ').pop());
}

/** `size` bytes of CSV rows, in chunks of 1 MiB. */
async function* csvOfSize(size: number): AsyncIterable<Buffer> {
  const row = `+15005550000,someone@example.com,${'x'.repeat(64 - 34)}\n`;
  const mebibyte = Buffer.from(row.repeat((1024 * 1024) / row.length + 1)).subarray(0, 1024 * 1024);
  let sent = 0;
  while (sent < size) {
    const chunk = mebibyte.subarray(0, Math.min(mebibyte.length, size - sent));
    sent += chunk.length;
    yield chunk;
  }
}

describe('POST /api/v1/audience-import/preview', () => {
  it('streams the part named file to the segments service in the caller’s workspace and answers its preview', async () => {
    const { workspaceId, key } = await tenant();
    const csv = 'phone,email\r\n+15005550001,a@example.com\r\n';
    const before = segments.received.length;

    const sent = await post(
      key,
      form([
        { name: 'note', content: 'fields around the file are ignored' },
        { name: 'attachment', filename: 'other.csv', content: 'not,this\n1,2\n' },
        { name: 'file', filename: 'people.csv', content: csv },
        { name: 'after', content: 'ignored too' },
      ]),
    );

    expect(sent.status).toBe(201);
    expect(sent.body).toEqual({ data: PREVIEW });
    expect(refusal(sent).limited).toBe(true);
    const received = segments.received.slice(before);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      target: '/internal/v1/audience-import/uploads',
      text: csv,
      aborted: false,
      headers: expect.objectContaining({ 'x-workspace-id': String(workspaceId), 'content-type': 'text/csv' }),
    });
  });

  it('takes the file from a part without a file name, as `curl -F file=<people.csv` sends it', async () => {
    const { key } = await tenant();
    const before = segments.received.length;
    const sent = await post(key, form([{ name: 'file', content: 'email\na@example.com\n' }]));
    expect(sent.status).toBe(201);
    expect(segments.received.slice(before).map((received) => received.text)).toEqual([
      'email\na@example.com\n',
    ]);
  });

  it('passes the file on as it arrives: the service reads its start before the client sent the rest', async () => {
    const { key } = await tenant();
    const arrived = segments.nextFirstBytes();
    const hash = createHash('sha256');
    async function* held(): AsyncIterable<Buffer> {
      const start = Buffer.from(`phone\n${'1\n'.repeat(64 * 1024)}`);
      hash.update(start);
      yield start;
      // Sent only once the service has bytes of the file: a gateway that gathered the file first
      // would never send any, and this upload would never end.
      await arrived;
      for await (const chunk of csvOfSize(8 * 1024 * 1024)) {
        hash.update(chunk);
        yield chunk;
      }
    }
    const before = segments.received.length;

    const sent = await post(key, form([{ name: 'file', filename: 'big.csv', content: held() }]));

    expect(sent.status).toBe(201);
    const [received] = segments.received.slice(before);
    expect(received).toMatchObject({ bytes: 8 * 1024 * 1024 + 6 + 128 * 1024, aborted: false });
    expect(received!.sha256).toBe(hash.digest('hex'));
  });

  it('answers a file over 50 MiB 413, breaking the upload to the service off at the limit', async () => {
    const { key } = await tenant();
    const before = segments.received.length;

    const sent = await post(
      key,
      form([{ name: 'file', filename: 'big.csv', content: csvOfSize(MAX_IMPORT_FILE_BYTES + 1) }]),
    );

    expect(refusal(sent)).toEqual({ status: 413, at: ['/data/attributes/file'], limited: true });
    // The service sees the upload broken off (it may hear of it just after the client got its answer).
    const received = await eventually('the service to see the upload end', async () =>
      segments.received.length > before ? segments.received.slice(before) : undefined,
    );
    expect(received).toHaveLength(1);
    expect(received[0]!.aborted).toBe(true);
    expect(received[0]!.bytes).toBeLessThanOrEqual(MAX_IMPORT_FILE_BYTES);
    // The connection stays usable, and the breaker in front of the service did not count it.
    expect((await post(key, form([{ name: 'file', filename: 'a.csv', content: 'phone\n1\n' }]))).status).toBe(
      201,
    );
    expect(await breakerState()).toBe(0);
  }, 60_000);

  it('answers 422 at /data/attributes/file when the form has no part named file, calling nobody', async () => {
    const { key } = await tenant();
    const before = segments.received.length;
    for (const parts of [
      [{ name: 'upload', filename: 'people.csv', content: 'phone\n1\n' }],
      [{ name: 'note', content: 'no file at all' }],
      [],
    ]) {
      expect(refusal(await post(key, form(parts)))).toEqual({
        status: 422,
        at: ['/data/attributes/file'],
        limited: true,
      });
    }
    expect(segments.received.length).toBe(before);
  });

  it.each([
    ['application/json', 'application/json', '{"file":"phone\\n1"}'],
    ['text/csv', 'text/csv', 'phone\n1\n'],
    ['a form-encoded body', 'application/x-www-form-urlencoded', 'file=phone'],
    ['no Content-Type', null, 'phone\n1\n'],
  ])('answers %s 415, before reading the body', async (_name, contentType, body) => {
    const { key } = await tenant();
    const before = segments.received.length;
    const sent = await post(key, body, contentType);
    expect(refusal(sent)).toMatchObject({ status: 415, limited: true });
    expect((sent.body as Errors).errors[0]!.detail).toMatch(/send multipart\/form-data/);
    expect(segments.received.length).toBe(before);
  });

  it('keeps answering multipart 415 on every other route', async () => {
    const { key } = await tenant();
    const sent = await post(key, form([{ name: 'name', content: 'vip' }]), MULTIPART, '/api/v1/templates');
    expect(refusal(sent)).toMatchObject({ status: 415, limited: true });
  });

  it('answers a body that is not a well-formed form 400', async () => {
    const { key } = await tenant();
    const truncated = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nphone\n1\n`;
    expect(refusal(await post(key, truncated))).toMatchObject({ status: 400, limited: true });
    expect(refusal(await post(key, 'anything', 'multipart/form-data'))).toMatchObject({
      status: 400,
      limited: true,
    });
  });

  it('passes the service’s refusal of the file on as it is, and never counts it against the service', async () => {
    const { key } = await tenant();
    const refused = {
      errors: [
        {
          status: '422',
          title: 'Validation Error',
          detail:
            'The header row names the column "email" twice (columns 1 and 2); column names must be unique.',
          source: { pointer: '/data/attributes/file' },
        },
      ],
    };
    segments.verdict = () => ({ status: 422, body: refused });
    try {
      for (let sent = 0; sent < 12; sent += 1) {
        const answer = await post(
          key,
          form([{ name: 'file', filename: 'a.csv', content: 'email,email\n1,2\n' }]),
        );
        expect([answer.status, answer.body]).toEqual([422, refused]);
      }
      expect(await breakerState()).toBe(0);
    } finally {
      segments.verdict = () => ({ status: 201, body: { data: PREVIEW } });
    }
  });

  it('never counts an upload its client broke off against the service', async () => {
    const { key } = await tenant();
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const controller = new AbortController();
      const arrived = segments.nextFirstBytes();
      async function* brokenOff(): AsyncIterable<Buffer> {
        yield Buffer.from(`phone\n${'1\n'.repeat(32 * 1024)}`);
        await arrived;
        controller.abort();
        await new Promise(() => undefined);
      }
      await expect(
        fetch(`${harness.gateway.url}/api/v1/audience-import/preview`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': MULTIPART },
          body: form([{ name: 'file', filename: 'a.csv', content: brokenOff() }]) as RequestInit['body'],
          duplex: 'half',
          signal: controller.signal,
        } as RequestInit),
      ).rejects.toThrow();
    }
    const uploaded = await post(key, form([{ name: 'file', filename: 'a.csv', content: 'phone\n1\n' }]));
    expect(uploaded.status).toBe(201);
    expect(await breakerState()).toBe(0);
  });

  it('asks for a key (401), the create permission and a plan with the API (403) before reading the file', async () => {
    const body = (): AsyncIterable<Buffer> =>
      form([{ name: 'file', filename: 'a.csv', content: 'phone\n1\n' }]);
    const before = segments.received.length;
    expect((await post(undefined, body())).status).toBe(401);
    const reader = await tenant('pro', ['read']);
    expect(refusal(await post(reader.key, body()))).toMatchObject({ status: 403, limited: true });
    const starter = await tenant('starter');
    expect(refusal(await post(starter.key, body()))).toMatchObject({ status: 403, limited: true });
    expect(segments.received.length).toBe(before);
  });
});
