import autocannon from 'autocannon';

import type { CpuMeter, CpuUsage } from '../support/cpu-meter';

/** Where each request goes and what it carries; `next` is called once per request sent. */
export interface RequestSource {
  path: string;
  /** POST unless it says GET (the open loop only; a GET sends no body). */
  method?: 'GET' | 'POST';
  /** `path`, when given, replaces the source's for this request (the open loop only). */
  next(): { headers: Record<string, string>; body: string; path?: string };
}

export interface LoadStep {
  connections: number;
  seconds: number;
  /** 2xx answers per second over the step. */
  rps: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  statusCodes: Record<string, number>;
  passes: boolean;
  cpu?: CpuUsage;
}

export interface SustainedSearch {
  /** The step with the most 2xx/s among those that met the latency bound without errors. */
  best: LoadStep | undefined;
  /** The step with the most 2xx/s at any latency. */
  peak: LoadStep | undefined;
  steps: LoadStep[];
  p99LimitMs: number;
}

/** More failures than this share of the requests and a step does not count, whatever its latency. */
const MAX_FAILURE_SHARE = 0.001;

/**
 * autocannon with `connections` keep-alive connections, each sending its next request as soon as the
 * previous one is answered (closed loop). autocannon's own fixed-rate mode sends each connection's
 * quota for the second in a burst and corrects latencies with a 1 ms interval, so rates are set here
 * by concurrency instead: the same method for the no-op baseline and the gateway.
 */
export async function runClosedLoop(
  url: string,
  source: RequestSource,
  connections: number,
  seconds: number,
  p99LimitMs: number,
): Promise<LoadStep> {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    pipelining: 1,
    timeout: 10,
    requests: [
      {
        method: 'POST',
        path: source.path,
        setupRequest: (request) => {
          const { headers, body } = source.next();
          return { ...request, headers: { ...request.headers, ...headers }, body };
        },
      },
    ],
  });
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0]),
  );
  const ok = result['2xx'];
  const failures = result.non2xx + result.errors;
  const total = ok + failures;
  const latencyMs = {
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    mean: Math.round(result.latency.mean * 10) / 10,
  };
  return {
    connections,
    seconds: result.duration,
    rps: Math.round(ok / result.duration),
    ok,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    latencyMs,
    statusCodes,
    passes: total > 0 && latencyMs.p99 <= p99LimitMs && failures / total <= MAX_FAILURE_SHARE,
  };
}

export interface SearchOptions {
  /** Concurrency levels to try, ascending. */
  levels: number[];
  seconds: number;
  warmupSeconds: number;
  p99LimitMs: number;
  meter: CpuMeter;
  log(line: string): void;
}

function describe(step: LoadStep): string {
  const failures = step.non2xx + step.errors;
  return (
    `c=${step.connections}: ${step.rps} req/s, p50 ${step.latencyMs.p50} ms, p99 ${step.latencyMs.p99} ms` +
    `${failures > 0 ? `, ${failures} failed (${JSON.stringify(step.statusCodes)})` : ''}` +
    ` -> ${step.passes ? 'within bound' : 'out of bound'}`
  );
}

/**
 * The highest rate served with p99 within the bound: concurrency goes up while the rate grows (past
 * saturation more connections only queue), then one step between the best level within the bound and
 * the first level above it that broke the bound. The peak rate at any latency is kept too.
 */
export async function findSustainedRate(
  url: string,
  source: RequestSource,
  options: SearchOptions,
): Promise<SustainedSearch> {
  const { levels, seconds, p99LimitMs } = options;
  // Warm-up (JIT, connection pools, caches), not counted.
  await runClosedLoop(url, source, 16, options.warmupSeconds, p99LimitMs);
  const steps: LoadStep[] = [];
  let best: LoadStep | undefined;
  const measure = async (connections: number): Promise<LoadStep> => {
    const start = options.meter.snapshot();
    const step = await runClosedLoop(url, source, connections, seconds, p99LimitMs);
    step.cpu = options.meter.between(start, options.meter.snapshot());
    steps.push(step);
    options.log(describe(step));
    if (step.passes && (!best || step.rps > best.rps)) best = step;
    return step;
  };
  let peak: LoadStep | undefined;
  let flat = 0;
  for (const connections of levels) {
    const step = await measure(connections);
    const grew = !peak || step.rps >= peak.rps * 1.03;
    if (!peak || step.rps > peak.rps) peak = step;
    // Two levels in a row without more throughput: saturated (one alone may be noise).
    flat = grew ? 0 : flat + 1;
    if (flat === 2) break;
    // Far past the bound: more connections only queue longer (and would run into timeouts).
    if (!step.passes && step.latencyMs.p99 > 20 * p99LimitMs) break;
  }
  const good = best?.connections;
  const firstBad = steps.find(
    (step) => good !== undefined && step.connections > good && !step.passes,
  )?.connections;
  if (good !== undefined && firstBad !== undefined && firstBad > good * 1.3) {
    await measure(Math.round((good + firstBad) / 2));
  }
  return { best, peak, steps, p99LimitMs };
}
