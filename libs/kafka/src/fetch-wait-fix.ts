import { createRequire } from 'node:module';

/**
 * How long the broker holds a consumer's fetch while one of its partitions is paused for a chunk applied
 * apart (kafkajs' own default wait is 5 s; ours, a long poll, 10 s).
 */
export const APART_FETCH_WAIT_MS = 100;

interface ConsumerGroupInternals {
  groupId: string;
  maxWaitTime: number;
  fetch(nodeId: number): Promise<unknown>;
}

const FIXED = Symbol.for('cms.kafkajs.consumerGroup.fetchWait');
const BASE_WAIT = Symbol('cms.kafkajs.consumerGroup.baseWait');

/** Per consumer group: whether its fetches should be short now (each running consumer of the group asks). */
const shortWhile = new Map<string, Set<() => boolean>>();

/**
 * A consumer long-polls: the broker holds its fetch until a record comes or the wait ends. A partition
 * paused meanwhile and resumed (a chunk applied apart, ConsumerRuntime.applyApart) is fetched only with
 * the next fetch, after the one in flight ends: with nothing else coming, a whole wait later, and kafkajs
 * sleeps that long too when every partition is paused. So the partition's next record waited up to
 * the wait (10 s) behind a chunk that took a second. While `short()` holds for one of a group's
 * consumers in this process, that group's fetches wait `APART_FETCH_WAIT_MS` at most; otherwise the
 * consumer's own wait. kafkajs reads the wait from its consumer group at each fetch (consumerGroup.js
 * `fetch`), which it keeps to itself, so the wait is set there. Returns what undoes the registration.
 */
export function shortenFetchesWhile(groupId: string, short: () => boolean): () => void {
  fixKafkajsFetchWait();
  let hooks = shortWhile.get(groupId);
  if (!hooks) shortWhile.set(groupId, (hooks = new Set()));
  hooks.add(short);
  return () => {
    hooks.delete(short);
    if (hooks.size === 0 && shortWhile.get(groupId) === hooks) shortWhile.delete(groupId);
  };
}

/** The wait of a group's next fetch: its own, or the short one while a registered consumer asks for it. */
export function fetchWaitOf(groupId: string, own: number): number {
  const hooks = shortWhile.get(groupId);
  if (hooks === undefined) return own;
  for (const short of hooks) if (short()) return Math.min(own, APART_FETCH_WAIT_MS);
  return own;
}

/** Applied once per process, before any consumer fetches (createKafka). */
export function fixKafkajsFetchWait(): void {
  const require = createRequire(__filename);
  const ConsumerGroup = require('kafkajs/src/consumer/consumerGroup') as {
    prototype: ConsumerGroupInternals & { [FIXED]?: true };
  };
  const prototype = ConsumerGroup.prototype;
  if (prototype[FIXED]) return;
  if (typeof prototype.fetch !== 'function') {
    throw new Error('kafkajs ConsumerGroup has no fetch: review libs/kafka/src/fetch-wait-fix.ts');
  }
  const fetch = prototype.fetch;
  prototype.fetch = function fetchWithWait(
    this: ConsumerGroupInternals & { [BASE_WAIT]?: number },
    nodeId: number,
  ) {
    const own = (this[BASE_WAIT] ??= this.maxWaitTime);
    this.maxWaitTime = fetchWaitOf(this.groupId, own);
    return fetch.call(this, nodeId);
  };
  prototype[FIXED] = true;
}
