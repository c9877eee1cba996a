import type { DataSource } from 'typeorm';

import { IdAllocatorRepository } from './id-allocator.repository';
import { ID_BLOCK_SIZE } from './id-kinds';

/** A sequence that hands out blocks of ID_BLOCK_SIZE, answering each query when the test lets it. */
class FakeSequence {
  queries = 0;
  private nextStart = 1;
  private readonly waiting: Array<() => void> = [];
  failNext = false;

  readonly dataSource = {
    /** One block, or as many as the query's one parameter says (`generate_series(1, $1)`). */
    query: async (_sql: string, params: number[] = [1]): Promise<Array<{ start: string }>> => {
      this.queries += 1;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      if (this.failNext) {
        this.failNext = false;
        throw new Error('connection refused');
      }
      return Array.from({ length: params[0]! }, () => {
        const start = this.nextStart;
        this.nextStart += ID_BLOCK_SIZE;
        return { start: String(start) };
      });
    },
  } as unknown as DataSource;

  /** Answers the queries waiting now. */
  async answer(): Promise<void> {
    for (const resolve of this.waiting.splice(0)) resolve();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function settled<T>(promise: Promise<T>): Promise<{ done: boolean; value?: T }> {
  let done = false;
  let value: T | undefined;
  void promise.then((v) => {
    done = true;
    value = v;
  });
  await new Promise((resolve) => setImmediate(resolve));
  return { done, value };
}

describe('IdAllocatorRepository', () => {
  it('hands out the ids of a block in order, one query for the first ones whoever asks', async () => {
    const sequence = new FakeSequence();
    const ids = new IdAllocatorRepository(sequence.dataSource);
    const first = [ids.next('event'), ids.next('event'), ids.next('event')];
    await sequence.answer();
    expect(await Promise.all(first)).toEqual([1, 2, 3]);
    expect(sequence.queries).toBe(1);
  });

  it('fetches the next block once half of the current one is handed out, so nobody waits at its end', async () => {
    const sequence = new FakeSequence();
    const ids = new IdAllocatorRepository(sequence.dataSource);
    const first = ids.next('contact');
    await sequence.answer();
    expect(await first).toBe(1);
    for (let id = 2; id < ID_BLOCK_SIZE / 2; id += 1) expect(await ids.next('contact')).toBe(id);
    expect(sequence.queries).toBe(1);
    expect(await ids.next('contact')).toBe(ID_BLOCK_SIZE / 2);
    expect(sequence.queries).toBe(2);
    await sequence.answer();
    for (let id = ID_BLOCK_SIZE / 2 + 1; id <= ID_BLOCK_SIZE; id += 1)
      expect(await ids.next('contact')).toBe(id);
    // The next block is there already: the first id past the end is handed out at once.
    expect(await settled(ids.next('contact'))).toEqual({ done: true, value: ID_BLOCK_SIZE + 1 });
    expect(sequence.queries).toBe(2);
  });

  it('tries a failed prefetch again with the next id', async () => {
    const sequence = new FakeSequence();
    const ids = new IdAllocatorRepository(sequence.dataSource);
    const first = ids.next('tag');
    await sequence.answer();
    await first;
    for (let id = 2; id <= ID_BLOCK_SIZE / 2; id += 1) await ids.next('tag');
    sequence.failNext = true;
    await sequence.answer();
    expect(sequence.queries).toBe(2);

    expect(await ids.next('tag')).toBe(ID_BLOCK_SIZE / 2 + 1);
    expect(sequence.queries).toBe(3);
    await sequence.answer();
    for (let id = ID_BLOCK_SIZE / 2 + 2; id <= ID_BLOCK_SIZE; id += 1) await ids.next('tag');
    expect(await settled(ids.next('tag'))).toEqual({ done: true, value: ID_BLOCK_SIZE + 1 });
  });

  it('hands out many ids at once from the block in hand and the blocks still needed, in one round trip', async () => {
    const sequence = new FakeSequence();
    const ids = new IdAllocatorRepository(sequence.dataSource);
    const first = ids.next('contact');
    await sequence.answer();
    expect(await first).toBe(1);

    const many = ids.many('contact', 3 * ID_BLOCK_SIZE);
    await sequence.answer();
    const handed = await many;
    expect(sequence.queries).toBe(2);
    expect(new Set(handed).size).toBe(3 * ID_BLOCK_SIZE);
    expect(handed.slice(0, 3)).toEqual([2, 3, 4]);
    expect(Math.max(...handed)).toBe(3 * ID_BLOCK_SIZE + 1);
    // What the last block held beyond them is handed out next, without asking the database.
    expect(await settled(ids.next('contact'))).toEqual({ done: true, value: 3 * ID_BLOCK_SIZE + 2 });
    expect(sequence.queries).toBe(2);
  });

  it('reserves whole blocks in one round trip, never handing out their ids elsewhere', async () => {
    const sequence = new FakeSequence();
    const ids = new IdAllocatorRepository(sequence.dataSource);
    const first = ids.next('contact');
    await sequence.answer();
    expect(await first).toBe(1);

    const blocks = ids.blocks('contact', 3);
    await sequence.answer();
    expect(await blocks).toEqual([ID_BLOCK_SIZE + 1, 2 * ID_BLOCK_SIZE + 1, 3 * ID_BLOCK_SIZE + 1]);
    expect(sequence.queries).toBe(2);
    // The block in hand goes on where it was; no id of the reserved blocks is handed out.
    expect(await ids.next('contact')).toBe(2);
    expect(await ids.blocks('contact', 0)).toEqual([]);
    expect(sequence.queries).toBe(2);
  });

  it('fails the requests waiting for a block the database could not give, and serves the next ones', async () => {
    const sequence = new FakeSequence();
    const ids = new IdAllocatorRepository(sequence.dataSource);
    const waiting = [ids.next('workspace'), ids.next('workspace')];
    sequence.failNext = true;
    await sequence.answer();
    for (const request of waiting) await expect(request).rejects.toThrow('connection refused');

    const again = ids.next('workspace');
    await sequence.answer();
    expect(await again).toBe(1);
  });
});
