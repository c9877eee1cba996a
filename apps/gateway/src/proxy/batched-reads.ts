import DataLoader from 'dataloader';

/**
 * Reads that many requests ask for at once, made as few: a key asked for while no read of the loader is
 * under way is read at the next turn of the event loop, with every key asked in the same turn; keys
 * asked while a read is under way wait for it and go into the next one together. So at rest a key is
 * read at once, under load one read answers many requests, and every read starts after each of the
 * requests it answers asked: an answer is never older than its question.
 *
 * `read` answers the keys in their order; an Error in a key's place fails that key's request alone.
 */
export function batchedReads<K, V>(
  read: (keys: readonly K[]) => Promise<ReadonlyArray<V | Error>>,
  maxBatchSize: number,
): DataLoader<K, V> {
  let underWay = 0;
  const waiting: Array<() => void> = [];
  return new DataLoader<K, V>(
    async (keys) => {
      underWay += 1;
      try {
        return await read(keys);
      } finally {
        underWay -= 1;
        if (underWay === 0) for (const dispatch of waiting.splice(0)) dispatch();
      }
    },
    {
      // Every answer is read after its question (no answer is kept for the next one).
      cache: false,
      maxBatchSize,
      batchScheduleFn: (dispatch) => {
        if (underWay === 0) setImmediate(dispatch);
        else waiting.push(dispatch);
      },
    },
  );
}
