import { toE164 } from '@cms/contracts';

import {
  countAt,
  latencyWithP95,
  peakRssMiB,
  rateBetween,
  sandboxDelivers,
  workflowPhone,
  workspacesFor,
} from './automations-load';

describe('the automations phase', () => {
  it('gives each contact a phone of its own that the API takes as written and the sandbox delivers to', () => {
    const phones = [0, 1, 2].flatMap((series) => [0, 1, 9_999, 999_999].map((i) => workflowPhone(series, i)));
    expect(new Set(phones).size).toBe(phones.length);
    for (const phone of phones) {
      expect(toE164(phone)).toBe(phone);
      expect(sandboxDelivers(phone)).toBe(true);
    }
    expect(workflowPhone(1, 42)).toBe('+16210000427');
    expect(() => workflowPhone(10, 0)).toThrow();
    expect(() => workflowPhone(0, 1_000_000)).toThrow();
  });

  it('knows the phones the sandbox fails or leaves at sent', () => {
    expect(sandboxDelivers('+16285550001')).toBe(false);
    expect(sandboxDelivers('+16285550009')).toBe(false);
    expect(sandboxDelivers('+16285550006')).toBe(true);
  });

  it('reads how fast a polled count grew over a window, between the samples around its ends', () => {
    const samples = [
      { at: 0, count: 0 },
      { at: 1000, count: 100 },
      { at: 2000, count: 300 },
      { at: 3000, count: 300 },
    ];
    expect(countAt(samples, -5)).toBe(0);
    expect(countAt(samples, 1500)).toBe(200);
    expect(countAt(samples, 9000)).toBe(300);
    expect(countAt([], 10)).toBe(0);
    expect(rateBetween(samples, 500, 2000)).toBe(166.66666666666666);
    expect(rateBetween(samples, 2000, 3000)).toBe(0);
    expect(rateBetween(samples, 2000, 2000)).toBe(0);
  });

  it('spreads a load over enough workspaces that none passes its share of the events budget', () => {
    expect(workspacesFor(3_500, 600, 8)).toBe(8);
    expect(workspacesFor(12_000, 600, 8)).toBe(20);
    expect(workspacesFor(12_001, 600, 8)).toBe(21);
  });

  it("reads a process's peak resident memory from /proc/<pid>/status", () => {
    expect(peakRssMiB('Name:\tnode\nVmPeak:\t 1234567 kB\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\n')).toBe(
      200,
    );
    expect(peakRssMiB('Name:\tnode\n')).toBeUndefined();
  });

  it('summarizes durations with p95 beside p50, p90, p99 and the largest', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(latencyWithP95(values)).toEqual({ p50: 50, p90: 90, p95: 95, p99: 99, max: 100 });
  });
});
