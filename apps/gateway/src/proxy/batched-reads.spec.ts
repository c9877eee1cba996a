import { batchedReads } from './batched-reads';

/** A read the test finishes by hand: what it was asked, and how to answer it. */
interface HeldRead {
  keys: readonly number[];
  answer(values: Array<number | Error>): void;
}

function heldReads(): {
  reads: HeldRead[];
  read: (keys: readonly number[]) => Promise<Array<number | Error>>;
} {
  const reads: HeldRead[] = [];
  return {
    reads,
    read: (keys) =>
      new Promise((resolve) => {
        reads.push({ keys, answer: resolve });
      }),
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('batchedReads', () => {
  it('reads the keys asked in one turn together, at the next turn', async () => {
    const { reads, read } = heldReads();
    const loader = batchedReads(read, 100);
    const answers = Promise.all([loader.load(1), loader.load(2), loader.load(1)]);
    expect(reads).toEqual([]);
    await turn();
    expect(reads.map((held) => held.keys)).toEqual([[1, 2, 1]]);
    reads[0]!.answer([10, 20, 10]);
    await expect(answers).resolves.toEqual([10, 20, 10]);
  });

  it('keeps the keys asked while a read is under way for one read after it, never for the read under way', async () => {
    const { reads, read } = heldReads();
    const loader = batchedReads(read, 100);
    const first = loader.load(1);
    await turn();
    expect(reads.map((held) => held.keys)).toEqual([[1]]);
    // Asked after the first read began: its answer may be older than the question, so they wait.
    const later = [loader.load(2), loader.load(3)];
    await turn();
    const alsoLater = loader.load(4);
    await turn();
    expect(reads.map((held) => held.keys)).toEqual([[1]]);
    reads[0]!.answer([10]);
    await expect(first).resolves.toBe(10);
    await turn();
    expect(reads.map((held) => held.keys)).toEqual([[1], [2, 3, 4]]);
    reads[1]!.answer([20, 30, 40]);
    await expect(Promise.all([...later, alsoLater])).resolves.toEqual([20, 30, 40]);
  });

  it('fails only the key whose place holds an Error, and the next read goes on', async () => {
    const { reads, read } = heldReads();
    const loader = batchedReads(read, 100);
    const answers = [loader.load(1), loader.load(2)];
    await turn();
    reads[0]!.answer([new Error('workspace 2 away'), 20]);
    await expect(answers[0]).rejects.toThrow('workspace 2 away');
    await expect(answers[1]).resolves.toBe(20);
    const next = loader.load(1);
    await turn();
    reads[1]!.answer([11]);
    await expect(next).resolves.toBe(11);
  });

  it('fails every key of a read that fails, and reads the keys waiting behind it', async () => {
    const reads: number[][] = [];
    let fail = true;
    const loader = batchedReads<number, number>(async (keys) => {
      reads.push([...keys]);
      await turn();
      if (fail) throw new Error('Postgres away');
      return keys.map((key) => key * 10);
    }, 100);
    const first = loader.load(1);
    await turn();
    const waiting = loader.load(2);
    await expect(first).rejects.toThrow('Postgres away');
    fail = false;
    await expect(waiting).resolves.toBe(20);
    expect(reads).toEqual([[1], [2]]);
  });

  it("splits a turn's keys into reads of at most maxBatchSize", async () => {
    const { reads, read } = heldReads();
    const loader = batchedReads(read, 2);
    const answers = Promise.all([1, 2, 3].map((key) => loader.load(key)));
    await turn();
    expect(reads.map((held) => held.keys)).toEqual([[1, 2], [3]]);
    reads[0]!.answer([10, 20]);
    reads[1]!.answer([30]);
    await expect(answers).resolves.toEqual([10, 20, 30]);
  });
});
