import { createRequire } from 'node:module';

import { fixKafkajsRequestQueue, REQUEST_TIMEOUT_CHECK_MS } from './request-queue-fix';

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

  describe('the look for requests past their timeout', () => {
    interface TimeoutQueue {
      enforceRequestTimeout: boolean;
      requestTimeout: number;
      inflight: Map<number, { sentAt: number; requestTimeout: number; timeoutRequest(): void }>;
      requestTimeoutIntervalId: NodeJS.Timeout | undefined;
      throttleCheckTimeoutId: NodeJS.Timeout | null;
      connected: boolean;
      isConnected(): boolean;
      destroy(): void;
      scheduleRequestTimeoutCheck(): void;
    }

    function timeoutQueue(requestTimeout = 30_000): TimeoutQueue {
      const RequestQueue = createRequire(__filename)('kafkajs/src/network/requestQueue') as {
        prototype: object;
      };
      const made = Object.create(RequestQueue.prototype) as TimeoutQueue;
      return Object.assign(made, {
        enforceRequestTimeout: true,
        requestTimeout,
        inflight: new Map(),
        requestTimeoutIntervalId: undefined,
        throttleCheckTimeoutId: null,
        connected: true,
        isConnected(this: TimeoutQueue) {
          return this.connected;
        },
      });
    }

    function request(queue: TimeoutQueue, id: number, timeoutMs: number) {
      const sent = {
        sentAt: Date.now(),
        requestTimeout: timeoutMs,
        timedOut: 0,
        timeoutRequest(): void {
          sent.timedOut += 1;
          queue.inflight.delete(id);
        },
      };
      queue.inflight.set(id, sent);
      return sent;
    }

    beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
    afterEach(() => jest.useRealTimers());

    it('wakes once a second at rest, not ten times (kafkajs looks every 100 ms)', () => {
      const queue = timeoutQueue();
      request(queue, 1, 35_000);
      let looks = 0;
      queue.isConnected = () => {
        looks += 1;
        return true;
      };
      queue.scheduleRequestTimeoutCheck();
      jest.advanceTimersByTime(10_000);
      // 10 s with a long poll in flight: one look a second (kafkajs: a hundred), the poll left alone.
      expect(looks).toBe(10);
      expect(queue.inflight.has(1)).toBe(true);
      expect(jest.getTimerCount()).toBe(1);
      queue.destroy();
      expect(jest.getTimerCount()).toBe(0);
    });

    it('times a request out at its deadline, and one sent meanwhile at most a look late', () => {
      const queue = timeoutQueue();
      const long = request(queue, 1, 2_500);
      queue.scheduleRequestTimeoutCheck();
      jest.advanceTimersByTime(2_400);
      expect(long.timedOut).toBe(0);
      jest.advanceTimersByTime(200);
      expect(long.timedOut).toBe(1);
      const late = request(queue, 2, 150);
      jest.advanceTimersByTime(REQUEST_TIMEOUT_CHECK_MS + 150);
      expect(late.timedOut).toBe(1);
      queue.destroy();
    });

    it('stops when the connection is gone, and does nothing when timeouts are not enforced', () => {
      const queue = timeoutQueue();
      queue.scheduleRequestTimeoutCheck();
      queue.connected = false;
      jest.advanceTimersByTime(REQUEST_TIMEOUT_CHECK_MS);
      expect(jest.getTimerCount()).toBe(0);
      const lax = Object.assign(timeoutQueue(), { enforceRequestTimeout: false });
      lax.scheduleRequestTimeoutCheck();
      expect(jest.getTimerCount()).toBe(0);
    });
  });
});
