/**
 * Writes of rows by id that a decision adds or removes (send jobs, timers), kept as the statements
 * would leave them: a removal deletes whatever row there was, an addition after it inserts, and an
 * addition where a row is (stored, or added before in the chunk) keeps that row.
 */
export class KeyedWrites<T> {
  private readonly entries = new Map<string, { remove: boolean; insert: T | null }>();

  constructor(private readonly undo: Array<() => void>) {}

  add(id: string, row: T): void {
    const entry = this.entries.get(id);
    if (entry?.insert != null) return;
    this.change(id, { remove: entry?.remove ?? false, insert: row });
  }

  remove(id: string): void {
    this.change(id, { remove: true, insert: null });
  }

  get removed(): string[] {
    return [...this.entries].filter(([, entry]) => entry.remove).map(([id]) => id);
  }

  get inserted(): T[] {
    return [...this.entries.values()].flatMap((entry) => (entry.insert === null ? [] : [entry.insert]));
  }

  /** The rows added, by id. */
  pending(): Array<[string, T]> {
    return [...this.entries].flatMap(([id, entry]) => (entry.insert === null ? [] : [[id, entry.insert]]));
  }

  private change(id: string, next: { remove: boolean; insert: T | null }): void {
    const previous = this.entries.get(id);
    this.entries.set(id, next);
    this.undo.push(() => {
      if (previous === undefined) this.entries.delete(id);
      else this.entries.set(id, previous);
    });
  }
}

/**
 * Rows of one table a chunk reads by id: loaded up front, a miss read on its own (a row the chunk
 * has not touched reads the same from the database), an id known absent answered without a query.
 */
export class Lookup<K, V> {
  readonly rows = new Map<K, V>();
  readonly absent = new Set<K>();

  constructor(
    private readonly load: (ids: K[]) => Promise<V[]>,
    private readonly idOf: (row: V) => K,
  ) {}

  async preload(ids: Iterable<K>): Promise<void> {
    const wanted = [...ids].filter((id) => !this.rows.has(id) && !this.absent.has(id));
    if (wanted.length === 0) return;
    const found = await this.load(wanted);
    for (const row of found) this.rows.set(this.idOf(row), row);
    for (const id of wanted) if (!this.rows.has(id)) this.absent.add(id);
  }

  async get(id: K): Promise<V | null> {
    await this.preload([id]);
    return this.rows.get(id) ?? null;
  }
}
