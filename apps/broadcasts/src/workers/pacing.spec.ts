import { batchAllowance } from './pacing';

const NOW = 1_800_000_000_000;

describe('a send’s pace (throttle_per_minute)', () => {
  it('takes a full batch at once without a throttle', () => {
    const allowance = batchAllowance(null, [[NOW - 1000, 500]], NOW, 500);
    expect(allowance.size).toBe(500);
    expect(allowance.paceAfter(500)).toBe(NOW);
  });

  it('takes about a second’s share and is due again when that share has passed', () => {
    const allowance = batchAllowance(600, [], NOW, 500);
    expect(allowance.size).toBe(10);
    expect(allowance.paceAfter(10)).toBe(NOW + 1000);
  });

  it('never lets the last minute’s batches and the next one go past the throttle', () => {
    const recent: Array<[number, number]> = [
      [NOW - 59_000, 4],
      [NOW - 30_000, 5],
    ];
    const allowance = batchAllowance(10, recent, NOW, 500);
    expect(allowance.size).toBe(1);
    const full = batchAllowance(9, recent, NOW, 500);
    expect(full.size).toBe(0);
    // The oldest batch leaves the minute first.
    expect(full.nextAt).toBe(NOW + 1000);
  });

  it('forgets batches older than a minute', () => {
    const allowance = batchAllowance(5, [[NOW - 61_000, 5]], NOW, 500);
    expect(allowance.recent).toEqual([]);
    expect(allowance.size).toBe(1);
  });
});
