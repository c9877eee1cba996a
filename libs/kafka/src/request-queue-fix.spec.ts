import { createRequire } from 'node:module';

import { fixKafkajsRequestQueue } from './request-queue-fix';

interface Queue {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checks: number;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

function queue(pending: unknown[], throttledUntil: number): Queue {
  const RequestQueue = createRequire(__filename)('kafkajs/src/network/requestQueue') as { prototype: object };
  const made = Object.create(RequestQueue.prototype) as Queue;
  return Object.assign(made, {
    pending,
    throttledUntil,
    throttleCheckTimeoutId: null,
    checks: 0,
    checkPendingRequests(this: Queue) {
      this.checks += 1;
      this.scheduleCheckPendingRequests();
    },
  });
}

describe("kafkajs' request queue, fixed (tulios/kafkajs#1556)", () => {
  beforeAll(() => fixKafkajsRequestQueue());

  it('arms no timer for an idle connection: nothing waits and nothing throttles', async () => {
    const idle = queue([], -1);
    idle.scheduleCheckPendingRequests();
    expect(idle.throttleCheckTimeoutId).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(idle.checks).toBe(0);
  });

  it('checks again soon while requests wait, and stops once none does', async () => {
    const busy = queue(['a request'], -1);
    busy.scheduleCheckPendingRequests();
    expect(busy.throttleCheckTimeoutId).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(busy.checks).toBeGreaterThan(0);
    busy.pending = [];
    await new Promise((resolve) => setTimeout(resolve, 30));
    const settled = busy.checks;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect([busy.checks, busy.throttleCheckTimeoutId]).toEqual([settled, null]);
  });

  it('checks when a throttle ends, even with nothing waiting yet', () => {
    const throttled = queue([], Date.now() + 60_000);
    throttled.scheduleCheckPendingRequests();
    expect(throttled.throttleCheckTimeoutId).not.toBeNull();
    clearTimeout(throttled.throttleCheckTimeoutId!);
  });

  it('is applied once however often clients are made', () => {
    const RequestQueue = createRequire(__filename)('kafkajs/src/network/requestQueue') as {
      prototype: { scheduleCheckPendingRequests: unknown };
    };
    const fixed = RequestQueue.prototype.scheduleCheckPendingRequests;
    fixKafkajsRequestQueue();
    expect(RequestQueue.prototype.scheduleCheckPendingRequests).toBe(fixed);
  });
});
