/**
 * How long deciding a request of many parts (a batch of upserts, a chunk of import rows) runs at most
 * before it lets the process serve what waits meanwhile: the records of other partitions (fetched and
 * applied in transactions of their own, see ChunkHandler.worthAlone) and HTTP reads. 1,000 upserts
 * take a few hundred ms of CPU.
 */
const SLICE_MS = 10;

/** Cuts a long decision into slices of SLICE_MS, handing the event loop over between them. */
export class TimeSlices {
  private sliceStart = performance.now();

  /** Called before each part: yields to the event loop once the current slice is used up. */
  async next(): Promise<void> {
    if (performance.now() - this.sliceStart < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceStart = performance.now();
  }
}
