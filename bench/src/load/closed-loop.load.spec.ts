import { createServer, type Server } from 'node:http';

import { runClosedLoop, type RequestSource } from './closed-loop.load';

describe('closed-loop load', () => {
  let server: Server;
  let url: string;
  const seen: Array<{ authorization?: string; body: string }> = [];
  let slowEvery = 0;
  let count = 0;

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        seen.push({ authorization: request.headers.authorization, body });
        count += 1;
        const status = body.includes('"fail"') ? 503 : 202;
        const delay = slowEvery > 0 && count % slowEvery === 0 ? 150 : 0;
        setTimeout(() => response.writeHead(status).end(), delay);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    seen.length = 0;
    count = 0;
    slowEvery = 0;
  });

  function source(body: (n: number) => string): RequestSource {
    let n = 0;
    return {
      path: '/api/v1/events',
      next: () => {
        n += 1;
        return { headers: { authorization: `Bearer key-${n % 4}` }, body: body(n) };
      },
    };
  }

  it('sends each request the source makes and counts 2xx per second within the bound', async () => {
    const step = await runClosedLoop(
      url,
      source((n) => JSON.stringify({ n })),
      2,
      1,
      // A bound no answer of this local server comes near, even on a machine busy with other work:
      // the step must pass on its answers alone.
      10_000,
    );
    expect(step.ok).toBeGreaterThan(0);
    expect(step.non2xx).toBe(0);
    expect(step.rps).toBe(Math.round(step.ok / step.seconds));
    expect(step.passes).toBe(true);
    // Requests carry the source's headers and bodies, one call of `next` each.
    expect(new Set(seen.map((request) => request.authorization))).toEqual(
      new Set(['Bearer key-0', 'Bearer key-1', 'Bearer key-2', 'Bearer key-3']),
    );
    expect(seen.every((request) => /^\{"n":\d+\}$/.test(request.body))).toBe(true);
  });

  it('does not pass a step with failed answers or a p99 over the bound', async () => {
    const failing = await runClosedLoop(
      url,
      source((n) => (n % 10 === 0 ? '"fail"' : '{}')),
      2,
      1,
      100,
    );
    expect(failing.non2xx).toBeGreaterThan(0);
    expect(failing.statusCodes['503']).toBe(failing.non2xx);
    expect(failing.passes).toBe(false);

    slowEvery = 20;
    const slow = await runClosedLoop(
      url,
      source(() => '{}'),
      2,
      1,
      100,
    );
    expect(slow.non2xx).toBe(0);
    expect(slow.latencyMs.p99).toBeGreaterThan(100);
    expect(slow.passes).toBe(false);
  });
});
