import { MicroBatch } from './micro-batch';

describe('MicroBatch', () => {
  it('serves the calls made within one turn of the event loop with one batch, each with its own answer', async () => {
    const batches: number[][] = [];
    const batch = new MicroBatch<number, number>(
      async (items) => {
        batches.push(items);
        return items.map((item) => item * 10);
      },
      async () => {
        throw new Error('not expected on its own');
      },
    );
    const answers = await Promise.all([1, 2, 3].map((item) => batch.submit(item)));
    expect(answers).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('serves calls made while a batch runs with the next batch', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const batch = new MicroBatch<number, number>(
      async (items) => {
        batches.push(items);
        if (batches.length === 1) await held;
        return items;
      },
      async (item) => {
        batches.push([item]);
        return item;
      },
    );
    const first = batch.submit(1);
    await new Promise((resolve) => setImmediate(resolve));
    const later = [batch.submit(2), batch.submit(3)];
    release();
    expect(await Promise.all([first, ...later])).toEqual([1, 2, 3]);
    expect(batches).toEqual([[1], [2, 3]]);
  });

  it('serves each item on its own when the batch fails, so only the bad item fails', async () => {
    const batch = new MicroBatch<number, number>(
      async () => {
        throw new Error('a bad item in the batch');
      },
      async (item) => {
        if (item === 2) throw new Error('item 2 is bad');
        return item;
      },
    );
    const answers = await Promise.allSettled([1, 2, 3].map((item) => batch.submit(item)));
    expect(answers.map((answer) => answer.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((answers[1] as PromiseRejectedResult).reason).toEqual(new Error('item 2 is bad'));
  });

  it('takes at most maxItems in one batch', async () => {
    const batches: number[][] = [];
    const batch = new MicroBatch<number, number>(
      async (items) => {
        batches.push(items);
        return items;
      },
      async (item) => {
        batches.push([item]);
        return item;
      },
      2,
    );
    await Promise.all([1, 2, 3, 4, 5].map((item) => batch.submit(item)));
    // The one left over is served on its own.
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });
});
