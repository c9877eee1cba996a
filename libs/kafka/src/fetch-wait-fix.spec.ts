import { createRequire } from 'node:module';

import { APART_FETCH_WAIT_MS, fetchWaitOf, fixKafkajsFetchWait, shortenFetchesWhile } from './fetch-wait-fix';

describe("a consumer group's fetch wait while a chunk is applied apart", () => {
  it("is the group's own wait unless one of its consumers asks for short fetches", () => {
    let applying = false;
    const undo = shortenFetchesWhile('group-a', () => applying);
    try {
      expect(fetchWaitOf('group-a', 10_000)).toBe(10_000);
      applying = true;
      expect(fetchWaitOf('group-a', 10_000)).toBe(APART_FETCH_WAIT_MS);
      expect(fetchWaitOf('group-a', 20)).toBe(20);
      expect(fetchWaitOf('group-b', 10_000)).toBe(10_000);
    } finally {
      undo();
    }
    expect(fetchWaitOf('group-a', 10_000)).toBe(10_000);
  });

  it('is short while any consumer of the group in the process asks, and long again once none does', () => {
    let first = true;
    let second = false;
    const undoFirst = shortenFetchesWhile('group-c', () => first);
    const undoSecond = shortenFetchesWhile('group-c', () => second);
    expect(fetchWaitOf('group-c', 5000)).toBe(APART_FETCH_WAIT_MS);
    first = false;
    second = true;
    expect(fetchWaitOf('group-c', 5000)).toBe(APART_FETCH_WAIT_MS);
    undoSecond();
    expect(fetchWaitOf('group-c', 5000)).toBe(5000);
    undoFirst();
  });

  it("sets kafkajs' consumer group wait at each fetch from the wait it was made with", async () => {
    fixKafkajsFetchWait();
    const ConsumerGroup = createRequire(__filename)('kafkajs/src/consumer/consumerGroup') as {
      prototype: { fetch(nodeId: number): Promise<unknown> };
    };
    const waits: number[] = [];
    const group: { maxWaitTime: number; fetch(nodeId: number): Promise<unknown> } = Object.assign(
      Object.create(ConsumerGroup.prototype) as { fetch(nodeId: number): Promise<unknown> },
      {
        groupId: 'group-d',
        maxWaitTime: 10_000,
        cluster: {
          refreshMetadataIfNecessary: () => {
            waits.push(group.maxWaitTime);
            return Promise.reject(new Error('stop here'));
          },
        },
      },
    );
    let applying = true;
    const undo = shortenFetchesWhile('group-d', () => applying);
    await group.fetch(1).catch(() => undefined);
    applying = false;
    await group.fetch(1).catch(() => undefined);
    undo();
    expect(waits).toEqual([APART_FETCH_WAIT_MS, 10_000]);
  });
});
