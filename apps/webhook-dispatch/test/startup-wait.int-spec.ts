import { randomBytes } from 'node:crypto';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

import type { RunningService } from '@cms/service-kit';
import { ServiceHarness } from '@cms/service-kit/testing';
import { eventually, freePort } from '@cms/testing';

import type { WebhookDispatchConfig } from '../src/config';
import type { SenderOverrides } from '../src/dispatch/dispatch.module';
import { WEBHOOK_DISPATCH_SERVICE } from '../src/webhook-dispatch.service';

/**
 * A service started while Postgres does not answer yet (the kit's start-up, any service): it waits and
 * asks again with backoff, says so on its port (`/health` 200, `/ready` 503 with what it waits for),
 * and starts by itself once Postgres answers. It never ends the process it runs in.
 */

let harness: ServiceHarness<WebhookDispatchConfig, SenderOverrides>;
let gate: Server | undefined;
const sockets = new Set<Socket>();

beforeAll(async () => {
  harness = await ServiceHarness.start({
    definition: WEBHOOK_DISPATCH_SERVICE,
    prefix: 'startup',
    env: { SECRETS_KEY: randomBytes(32).toString('base64') },
  });
});

afterAll(async () => {
  await harness?.stop();
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => (gate ? gate.close(resolve) : resolve(undefined)));
});

/** Opens `port` as a way through to the stack's Postgres. */
function openGate(port: number, target: URL): Promise<void> {
  gate = createServer((client) => {
    const upstream = createConnection({ host: target.hostname, port: Number(target.port || 5432) });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  return new Promise((resolve) => gate!.listen(port, '127.0.0.1', () => resolve()));
}

it('waits for a Postgres that is not there yet, says so on /ready, and starts once it answers', async () => {
  const [databasePort, httpPort] = [await freePort(), await freePort()];
  const target = new URL(harness.stack.databaseUrl);
  const closedUrl = new URL(harness.stack.databaseUrl);
  closedUrl.hostname = '127.0.0.1';
  closedUrl.port = String(databasePort);
  const base = `http://127.0.0.1:${httpPort}`;

  let started: RunningService | undefined;
  let failed: unknown;
  const starting = harness
    .startService({ env: { DATABASE_URL: closedUrl.toString(), HTTP_PORT: String(httpPort) } })
    .then(
      (service) => (started = service),
      (error: unknown) => (failed = error),
    );

  const waiting = await eventually('the service to say what it waits for', async () => {
    const ready = await fetch(`${base}/ready`).catch(() => undefined);
    if (ready?.status !== 503) return undefined;
    const body = (await ready.json()) as {
      status: string;
      waiting_for: Record<string, { attempts: number }>;
    };
    return (body.waiting_for['postgres']?.attempts ?? 0) >= 2 ? body : undefined;
  });
  expect(waiting).toMatchObject({
    status: 'starting',
    service: 'webhook-dispatch',
    waiting_for: { postgres: { attempts: expect.any(Number), error: expect.any(String) } },
  });
  expect((await fetch(`${base}/health`)).status).toBe(200);
  // Any other request gets a JSON:API 503 to retry, as the API's own 503s are.
  const request = await fetch(`${base}/internal/v1/webhook-endpoints`);
  expect([request.status, request.headers.get('retry-after'), await request.json()]).toEqual([
    503,
    '1',
    {
      errors: [
        {
          status: '503',
          title: 'Service Unavailable',
          detail: 'The webhook-dispatch service is starting (waiting for postgres); retry shortly.',
        },
      ],
    },
  ]);
  expect([started, failed]).toEqual([undefined, undefined]);

  await openGate(databasePort, target);
  await starting;
  expect(failed).toBeUndefined();
  const ready = await eventually('the service ready on its port', async () => {
    const answer = await fetch(`${base}/ready`);
    return answer.status === 200 ? ((await answer.json()) as { status: string }) : undefined;
  });
  expect(ready.status).toBe('ready');
  await harness.stopService(started!);
});
