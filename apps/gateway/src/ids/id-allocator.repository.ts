import type { DataSource } from 'typeorm';

import { ID_BLOCK_SIZE, type IdKind } from './id-kinds';

interface Block {
  next: number;
  end: number;
}

/**
 * Mints integer ids from Postgres sequences, a block at a time: one round trip per hundred ids, and
 * no two replicas ever hand out the same id. Ids are minted before the request enters the log, so
 * replaying the log reproduces them.
 */
export class IdAllocatorRepository {
  private readonly blocks = new Map<IdKind, Block>();
  private readonly refills = new Map<IdKind, Promise<void>>();

  constructor(private readonly dataSource: DataSource) {}

  async next(kind: IdKind): Promise<number> {
    for (;;) {
      const block = this.blocks.get(kind);
      if (block && block.next < block.end) {
        const id = block.next;
        block.next += 1;
        return id;
      }
      let refill = this.refills.get(kind);
      if (!refill) {
        refill = this.refill(kind).finally(() => this.refills.delete(kind));
        this.refills.set(kind, refill);
      }
      await refill;
    }
  }

  private async refill(kind: IdKind): Promise<void> {
    const rows: Array<{ start: string }> = await this.dataSource.query(
      `SELECT nextval('${kind}_ids')::text AS start`,
    );
    const start = Number(rows[0]!.start);
    this.blocks.set(kind, { next: start, end: start + ID_BLOCK_SIZE });
  }
}
