interface Queued<I, O> {
  item: I;
  resolve(value: O): void;
  reject(error: unknown): void;
}

/**
 * Gathers the calls made within one turn of the event loop and serves them with one `runBatch`, which
 * answers each item in order. When the batch fails, each item is served on its own by `runOne`, so
 * one bad item fails only its own caller. Batches run one at a time; calls made meanwhile wait for
 * the next, which then serves all of them.
 */
export class MicroBatch<I, O> {
  private queue: Array<Queued<I, O>> = [];
  private scheduled = false;
  private running = false;

  constructor(
    private readonly runBatch: (items: I[]) => Promise<O[]>,
    private readonly runOne: (item: I) => Promise<O>,
    private readonly maxItems = 500,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.running) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0) {
        const taken = this.queue.splice(0, this.maxItems);
        await this.serve(taken);
      }
    } finally {
      this.running = false;
    }
  }

  private async serve(taken: Array<Queued<I, O>>): Promise<void> {
    if (taken.length > 1) {
      let results: O[] | undefined;
      try {
        results = await this.runBatch(taken.map((queued) => queued.item));
      } catch {
        // Served one by one below: the item at fault fails alone.
      }
      if (results) {
        taken.forEach((queued, index) => queued.resolve(results[index]!));
        return;
      }
    }
    await Promise.all(
      taken.map(async (queued) => {
        try {
          queued.resolve(await this.runOne(queued.item));
        } catch (error) {
          queued.reject(error);
        }
      }),
    );
  }
}
