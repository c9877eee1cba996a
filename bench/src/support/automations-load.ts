import { latencySummary, percentile, type LatencySummary } from './percentiles';

/**
 * The pure parts of the automations phase: the phones its contacts get, the rate a polled count grew
 * at over a window, and a process's peak resident memory as /proc reports it.
 */

/** The last four digits of a phone the sandbox fails or leaves at sent (extensions §9.5). */
const SANDBOX_STOPS = new Set(['0001', '0002', '0003', '0004', '0005', '0009']);

/** Distinct phones one series holds: six digits of the index, then a fixed last digit. */
export const PHONES_PER_SERIES = 1_000_000;

/**
 * The `index`th phone of `series` (0–9): `+1 62<series> <six digits of index> 7`. Distinct within and
 * across series, and never one the sandbox fails or leaves at sent (its last digit is 7), so every
 * message to it is reported sent and then delivered.
 */
export function workflowPhone(series: number, index: number): string {
  if (!Number.isInteger(series) || series < 0 || series > 9) throw new Error(`series ${series} is not 0–9`);
  if (!Number.isInteger(index) || index < 0 || index >= PHONES_PER_SERIES) {
    throw new Error(`index ${index} is outside 0–${PHONES_PER_SERIES - 1}`);
  }
  return `+162${series}${String(index).padStart(6, '0')}7`;
}

/** Whether the sandbox reports a message to `phone` sent and then delivered. */
export function sandboxDelivers(phone: string): boolean {
  return !SANDBOX_STOPS.has(phone.slice(-4));
}

/** A count read at one moment (performance.now()). */
export interface CountSample {
  at: number;
  count: number;
}

/**
 * The count at `at`, read between the samples around it (linearly); before the first sample its count,
 * after the last the last's. Samples are in time order.
 */
export function countAt(samples: readonly CountSample[], at: number): number {
  if (samples.length === 0) return 0;
  if (at <= samples[0]!.at) return samples[0]!.count;
  for (let index = 1; index < samples.length; index += 1) {
    const after = samples[index]!;
    if (at <= after.at) {
      const before = samples[index - 1]!;
      const span = after.at - before.at;
      return span <= 0
        ? after.count
        : before.count + ((after.count - before.count) * (at - before.at)) / span;
    }
  }
  return samples[samples.length - 1]!.count;
}

/** How fast the count grew between `from` and `to` (performance.now()), per second. */
export function rateBetween(samples: readonly CountSample[], from: number, to: number): number {
  if (to <= from) return 0;
  return (countAt(samples, to) - countAt(samples, from)) / ((to - from) / 1000);
}

/** Workspaces a load of `events` needs for none to take more than `perWorkspace`, and at least `least`. */
export function workspacesFor(events: number, perWorkspace: number, least: number): number {
  return Math.max(least, Math.ceil(events / perWorkspace));
}

/** VmHWM (the peak resident set since the process started) of a /proc/<pid>/status text, in MiB. */
export function peakRssMiB(status: string): number | undefined {
  const match = /^VmHWM:\s+(\d+)\s+kB$/m.exec(status);
  return match ? Math.round(Number(match[1]) / 1024) : undefined;
}

/** p50, p90, p95, p99 and the largest of a set of durations (ms), to a tenth of a millisecond. */
export function latencyWithP95(values: readonly number[]): LatencySummary & { p95: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { ...latencySummary(sorted), p95: Math.round(percentile(sorted, 95) * 10) / 10 };
}
