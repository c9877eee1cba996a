import { DEFAULT_STALL_LIMIT_MS, registerProgressChecks, stallLimitMs } from './progress-checks';

describe('registerProgressChecks', () => {
  it('fails the check of a part once it has stood still with work waiting for the limit', async () => {
    const checks = new Map<string, () => boolean | Promise<boolean>>();
    let outboxStalled = 0;
    registerProgressChecks(
      { register: (name, check) => void checks.set(name, check) },
      { outbox: { stalledMs: () => outboxStalled }, 'requests-consumer': { stalledMs: () => 0 } },
      2000,
    );

    expect([...checks.keys()]).toEqual(['outbox-moving', 'requests-consumer-moving']);
    expect(await checks.get('outbox-moving')!()).toBe(true);
    outboxStalled = 1999;
    expect(await checks.get('outbox-moving')!()).toBe(true);
    outboxStalled = 2000;
    expect(await checks.get('outbox-moving')!()).toBe(false);
    expect(await checks.get('requests-consumer-moving')!()).toBe(true);
  });

  it('reads the limit from READY_STALL_MS, 30 s when unset, and refuses one that is not a positive integer', () => {
    expect(stallLimitMs({})).toBe(DEFAULT_STALL_LIMIT_MS);
    expect(DEFAULT_STALL_LIMIT_MS).toBe(30_000);
    expect(stallLimitMs({ READY_STALL_MS: '1500' })).toBe(1500);
    expect(() => stallLimitMs({ READY_STALL_MS: '-1' })).toThrow(/READY_STALL_MS/);
    expect(() => stallLimitMs({ READY_STALL_MS: '30s' })).toThrow(/READY_STALL_MS/);
  });
});
