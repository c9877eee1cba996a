import { createRequire } from 'node:module';

/** kafkajs' own pause before it looks again at requests waiting for a free slot (requestQueue/index.js). */
const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;

/**
 * The longest pause between two looks for requests in flight past their timeout (kafkajs: 100 ms). A
 * look is due sooner when a request's deadline is nearer; one sent meanwhile is found at most this
 * late past its deadline (30 s by default, `requestTimeout` in createKafka).
 */
export const REQUEST_TIMEOUT_CHECK_MS = 1000;
/** The shortest pause between two looks, as kafkajs' own. */
const REQUEST_TIMEOUT_CHECK_MIN_MS = 100;

interface InflightRequest {
  sentAt: number;
  requestTimeout: number;
  timeoutRequest(): void;
}

interface RequestQueueInternals {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  inflight: Map<number, InflightRequest>;
  enforceRequestTimeout: boolean;
  requestTimeout: number;
  requestTimeoutIntervalId: NodeJS.Timeout | undefined;
  isConnected(): boolean;
  destroy(): void;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
  scheduleRequestTimeoutCheck(): void;
}

const FIXED = Symbol.for('cms.kafkajs.requestQueue.fixed');

/**
 * kafkajs 2.2.4 keeps a timer re-armed every millisecond on every broker connection whose request queue
 * is empty: `scheduleCheckPendingRequests` runs after each check and, with nothing waiting and no
 * throttle (`throttledUntil` -1), sets a timeout of a negative delay, which Node runs after 1 ms and
 * which schedules the next (tulios/kafkajs#1556 and #1704, open upstream; Node 24 reports each as
 * TimeoutNegativeWarning). At rest that is about a thousand wake-ups a second per connection: most of
 * what an idle service spent. A pending request needs the check only while requests wait (each one
 * that completes checks again anyway) or while the broker throttles the client, so this schedules it in
 * those cases only, exactly as kafkajs does, and never otherwise. Applied once per process, before
 * any client connects (createKafka).
 */
export function fixKafkajsRequestQueue(): void {
  const require = createRequire(__filename);
  const RequestQueue = require('kafkajs/src/network/requestQueue') as {
    prototype: RequestQueueInternals & { [FIXED]?: true };
  };
  const prototype = RequestQueue.prototype;
  if (prototype[FIXED]) return;
  for (const method of ['scheduleCheckPendingRequests', 'scheduleRequestTimeoutCheck'] as const) {
    if (typeof prototype[method] !== 'function') {
      throw new Error(`kafkajs RequestQueue has no ${method}: review libs/kafka/src/request-queue-fix.ts`);
    }
  }
  prototype.scheduleCheckPendingRequests = function scheduleCheckPendingRequests(
    this: RequestQueueInternals,
  ) {
    if (this.throttleCheckTimeoutId) return;
    const throttledForMs = this.throttledUntil - Date.now();
    if (this.pending.length === 0 && throttledForMs <= 0) return;
    const delay = throttledForMs > 0 ? throttledForMs : CHECK_PENDING_REQUESTS_INTERVAL_MS;
    this.throttleCheckTimeoutId = setTimeout(() => {
      this.throttleCheckTimeoutId = null;
      this.checkPendingRequests();
    }, delay);
  };
  /**
   * kafkajs looks for requests in flight past their timeout every 100 ms on every connection, whether
   * or not one could be due: ten wake-ups a second per service at rest, where the only requests in flight
   * are long polls due in half a minute. This looks when the earliest deadline in flight comes, and at
   * least every REQUEST_TIMEOUT_CHECK_MS (for a request sent meanwhile), with kafkajs' own check and
   * its own stop (`destroy`, which clears the timer, when the connection is gone).
   */
  prototype.scheduleRequestTimeoutCheck = function scheduleRequestTimeoutCheck(this: RequestQueueInternals) {
    if (!this.enforceRequestTimeout) return;
    this.destroy();
    const longest = Math.min(this.requestTimeout, REQUEST_TIMEOUT_CHECK_MS);
    const look = (): void => {
      const now = Date.now();
      let next = longest;
      for (const request of this.inflight.values()) {
        const left = request.sentAt + request.requestTimeout - now;
        if (left < 0) request.timeoutRequest();
        else next = Math.min(next, left + 1);
      }
      if (!this.isConnected()) {
        this.destroy();
        return;
      }
      this.requestTimeoutIntervalId = setTimeout(look, Math.max(REQUEST_TIMEOUT_CHECK_MIN_MS, next));
    };
    this.requestTimeoutIntervalId = setTimeout(look, longest);
  };
  prototype[FIXED] = true;
}
