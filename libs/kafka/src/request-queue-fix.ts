import { createRequire } from 'node:module';

/** kafkajs' own pause before it looks again at requests waiting for a free slot (requestQueue/index.js). */
const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;

interface RequestQueueInternals {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
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
  if (typeof prototype.scheduleCheckPendingRequests !== 'function') {
    throw new Error(
      'kafkajs RequestQueue has no scheduleCheckPendingRequests: review libs/kafka/src/request-queue-fix.ts',
    );
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
  prototype[FIXED] = true;
}
