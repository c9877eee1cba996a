import type { DataSource } from 'typeorm';

import { ID_BLOCK_SIZE, type IdKind } from './id-kinds';

interface Block {
  next: number;
  end: number;
}

interface Kind {
  current: Block | undefined;
  /** The block after the current one, fetched once half the current one is handed out. */
  spare: Block | undefined;
  fetching: Promise<void> | undefined;
}

/**
 * Mints integer ids from Postgres sequences, a block at a time: one round trip per hundred ids, and
 * no two replicas ever hand out the same id. Ids are minted before the request enters the log, so
 * replaying the log reproduces them. The next block is fetched while half of the current one is
 * left, so a request waits for the database only when ids go faster than a round trip.
 */
export class IdAllocatorRepository {
  private readonly kinds = new Map<IdKind, Kind>();

  constructor(private readonly dataSource: DataSource) {}

  async next(kind: IdKind): Promise<number> {
    const state = this.state(kind);
    for (;;) {
      if (state.current && state.current.next >= state.current.end && state.spare) {
        state.current = state.spare;
        state.spare = undefined;
      }
      const block = state.current;
      if (block && block.next < block.end) {
        const id = block.next;
        block.next += 1;
        if (!state.spare && block.end - block.next <= ID_BLOCK_SIZE / 2) {
          // Nobody waits on a prefetch: when it fails, the request that needs the block fetches it.
          this.fetch(kind, state).catch(() => undefined);
        }
        return id;
      }
      await this.fetch(kind, state);
    }
  }

  /**
   * `count` ids of a kind at once (the contacts of a batch): first what the blocks in hand hold, then
   * every block still needed in one round trip, where asking for them one id at a time waits for a
   * round trip per block. What the last block holds beyond `count` is kept for the next ids.
   */
  async many(kind: IdKind, count: number): Promise<number[]> {
    const state = this.state(kind);
    const ids: number[] = [];
    for (const block of [state.current, state.spare]) {
      while (block && block.next < block.end && ids.length < count) ids.push(block.next++);
    }
    const missing = count - ids.length;
    if (missing === 0) return ids;
    const rows: Array<{ start: string }> = await this.dataSource.query(
      `SELECT nextval('${kind}_ids')::text AS start FROM generate_series(1, $1)`,
      [Math.ceil(missing / ID_BLOCK_SIZE)],
    );
    for (const row of rows) {
      const block = { next: Number(row.start), end: Number(row.start) + ID_BLOCK_SIZE };
      while (block.next < block.end && ids.length < count) ids.push(block.next++);
      if (block.next === block.end) continue;
      if (!state.current || state.current.next >= state.current.end) state.current = block;
      else state.spare ??= block;
    }
    return ids;
  }

  /**
   * `count` whole blocks of a kind, by their first ids, reserved in one round trip and never split:
   * for a request that hands the ids out later, elsewhere (an import's rows, each the id of its
   * place). The blocks in hand are left for `next` and `many`.
   */
  async blocks(kind: IdKind, count: number): Promise<number[]> {
    if (count === 0) return [];
    const rows: Array<{ start: string }> = await this.dataSource.query(
      `SELECT nextval('${kind}_ids')::text AS start FROM generate_series(1, $1)`,
      [count],
    );
    return rows.map((row) => Number(row.start));
  }

  private state(kind: IdKind): Kind {
    let state = this.kinds.get(kind);
    if (!state) {
      state = { current: undefined, spare: undefined, fetching: undefined };
      this.kinds.set(kind, state);
    }
    return state;
  }

  /** One fetch at a time per kind; a failed prefetch is tried again by the next request. */
  private fetch(kind: IdKind, state: Kind): Promise<void> {
    state.fetching ??= this.dataSource
      .query(`SELECT nextval('${kind}_ids')::text AS start`)
      .then((rows: Array<{ start: string }>) => {
        const start = Number(rows[0]!.start);
        const block = { next: start, end: start + ID_BLOCK_SIZE };
        if (!state.current || state.current.next >= state.current.end) state.current = block;
        else state.spare = block;
      })
      .finally(() => {
        state.fetching = undefined;
      });
    return state.fetching;
  }
}
