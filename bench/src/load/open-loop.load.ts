import { Pool } from 'undici';

import type { RequestSource } from './closed-loop.load';

export interface Sent {
  /** The request's place in the order they were issued (the `index`th call of the source's `next`). */
  index: number;
  /** performance.now() when the request was due: latencies count from here, so a stalled client
   * or server cannot hide its own queueing (coordinated omission). */
  dueAt: number;
  answeredAt: number;
  status: number;
  body: string;
}

export interface OpenLoopResult {
  rate: number;
  seconds: number;
  sent: Sent[];
  errors: number;
}

/**
 * Requests at a fixed rate, each due at its own time whether or not earlier ones were answered
 * (open loop), over a pool of keep-alive connections.
 */
export async function runOpenLoop(
  url: string,
  source: RequestSource,
  rate: number,
  seconds: number,
  connections = 256,
): Promise<OpenLoopResult> {
  const pool = new Pool(url, { connections, pipelining: 1, keepAliveTimeout: 30_000 });
  const sent: Sent[] = [];
  const pending = new Set<Promise<void>>();
  let errors = 0;
  const started = performance.now();
  const total = Math.round(rate * seconds);
  let issued = 0;
  const issue = (index: number, dueAt: number): void => {
    const { headers, body, path } = source.next();
    const method = source.method ?? 'POST';
    const request = pool
      .request({ path: path ?? source.path, method, headers, ...(method === 'POST' ? { body } : {}) })
      .then(async (response) => {
        const text = await response.body.text();
        sent.push({ index, dueAt, answeredAt: performance.now(), status: response.statusCode, body: text });
      })
      .catch(() => {
        errors += 1;
      })
      .finally(() => pending.delete(request));
    pending.add(request);
  };
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const now = performance.now();
      // Request i is due at i / rate seconds: those with i ≤ elapsed × rate are due now.
      const due = Math.min(total, Math.floor(((now - started) / 1000) * rate) + 1);
      while (issued < due) {
        issue(issued, started + (issued * 1000) / rate);
        issued += 1;
      }
      if (issued >= total) resolve();
      else setTimeout(tick, 2);
    };
    tick();
  });
  await Promise.all([...pending]);
  await pool.close();
  return { rate, seconds, sent, errors };
}
