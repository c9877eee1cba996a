import { FakePostgres } from '../../test/fixtures/consumer-fakes';
import { CheckpointBehindError, CheckpointStore } from './checkpoint-store';

const CONSUMER = 'notes';

function storeOn(db: FakePostgres): CheckpointStore {
  return new CheckpointStore(CONSUMER, db.dataSource);
}

const inserts = (db: FakePostgres) =>
  db.statements.filter((statement) => statement.sql.startsWith('INSERT INTO consumer_checkpoints'));

describe('CheckpointStore', () => {
  it('creates the rows it does not know of, locks every partition in hand, and creates none again once committed', async () => {
    const db = new FakePostgres();
    const store = storeOn(db);
    db.store(CONSUMER, 'in', 1, 7n);

    const stored = await store.lock(db.manager, [
      { topic: 'in', partition: 1 },
      { topic: 'in', partition: 0 },
    ]);

    expect(inserts(db)).toHaveLength(1);
    expect(inserts(db)[0]!.params).toEqual([CONSUMER, ['in', 'in'], [1, 0]]);
    expect(db.statements[1]!.sql).toMatch(/ORDER BY c\.topic, c\.partition\s+FOR UPDATE OF c/);
    expect(stored.get('in/0')).toEqual({ next: undefined, horizon: undefined });
    expect(stored.get('in/1')).toEqual({ next: 7n, horizon: undefined });

    store.committed([{ topic: 'in', partition: 0 }]);
    db.statements = [];
    await store.lock(db.manager, [
      { topic: 'in', partition: 0 },
      { topic: 'in', partition: 2 },
    ]);
    expect(inserts(db).map((statement) => statement.params)).toEqual([[CONSUMER, ['in'], [2]]]);
  });

  it('returns the replay horizon of a partition that has one', async () => {
    const db = new FakePostgres();
    db.store(CONSUMER, 'in', 0, 3n);
    db.horizons.set('in/0', 10n);

    const stored = await storeOn(db).lock(db.manager, [{ topic: 'in', partition: 0 }]);

    expect(stored.get('in/0')).toEqual({ next: 3n, horizon: 10n });
  });

  it('lets records through from the stored checkpoint or below it, and refuses records above it', () => {
    const store = storeOn(new FakePostgres());
    const stored = new Map([['in/0', { next: 5n, horizon: undefined }]]);

    expect(() => store.fence(stored, 'in', 0, '5')).not.toThrow();
    expect(() => store.fence(stored, 'in', 0, '2')).not.toThrow();
    expect(() =>
      store.fence(new Map([['in/0', { next: undefined, horizon: undefined }]]), 'in', 0, '9'),
    ).not.toThrow();
    let refusal: unknown;
    try {
      store.fence(stored, 'in', 0, '8');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(CheckpointBehindError);
    expect((refusal as CheckpointBehindError).next).toBe(5n);
  });

  it('counts what was read past just before the records in hand as in hand', () => {
    const store = storeOn(new FakePostgres());
    const stored = new Map([['in/0', { next: 5n, horizon: undefined }]]);
    store.readPast('in', 0, 5n, 8n);

    expect(() => store.fence(stored, 'in', 0, '8')).not.toThrow();
    // After a gap the run no longer joins the records in hand.
    expect(() => store.fence(stored, 'in', 0, '9')).toThrow(CheckpointBehindError);
  });

  it('lets through records above a checkpoint the partition was just read again from: the log has nothing between', () => {
    const store = storeOn(new FakePostgres());
    const stored = new Map([['in/0', { next: 5n, horizon: undefined }]]);
    store.rewound('in', 0, 5n);

    expect(() => store.fence(stored, 'in', 0, '9')).not.toThrow();
    expect(() => store.fence(new Map([['in/0', { next: 6n, horizon: undefined }]]), 'in', 0, '9')).toThrow(
      CheckpointBehindError,
    );
  });

  it('stores a read-past run at its end, and reads the partition again when its stored checkpoint is below the run', () => {
    const store = storeOn(new FakePostgres());
    const runs = [
      { topic: 'in', partition: 0, from: 5n, to: 9n, since: 0 },
      { topic: 'in', partition: 1, from: 5n, to: 9n, since: 0 },
      { topic: 'in', partition: 2, from: 0n, to: 4n, since: 0 },
    ];
    const stored = new Map([
      ['in/0', { next: 5n, horizon: undefined }],
      ['in/1', { next: 3n, horizon: undefined }],
      ['in/2', { next: undefined, horizon: undefined }],
    ]);

    const { updates, rewinds } = store.settleReadPast(stored, runs);

    expect(updates).toEqual([
      { topic: 'in', partition: 0, next: 9n },
      { topic: 'in', partition: 2, next: 4n },
    ]);
    expect(rewinds).toEqual([expect.objectContaining({ topic: 'in', partition: 1, next: 3n })]);
  });

  it('moves checkpoints forward only, in one statement', async () => {
    const db = new FakePostgres();
    const store = storeOn(db);

    await store.move(db.manager, []);
    expect(db.statements).toEqual([]);
    await store.move(db.manager, [
      { topic: 'in', partition: 0, next: 9n },
      { topic: 'in', partition: 1, next: 4n },
    ]);

    expect(db.statements).toHaveLength(1);
    expect(db.statements[0]!.sql).toMatch(/SET next_offset = GREATEST\(c\.next_offset, u\.next\)/);
    expect(db.statements[0]!.params).toEqual([CONSUMER, ['in', 'in'], [0, 1], ['9', '4']]);
  });

  it('reads the stored checkpoints of a topic to seek to on assignment', async () => {
    const db = new FakePostgres();
    db.store(CONSUMER, 'in', 0, 12n);
    db.store(CONSUMER, 'in', 3, 4n);
    db.store('another', 'in', 1, 99n);

    expect(await storeOn(db).storedOffsets('in')).toEqual(
      new Map([
        [0, '12'],
        [3, '4'],
      ]),
    );
  });

  it('keeps the runs read past until a commit stores them, a rewind or an assignment drops them', () => {
    const store = storeOn(new FakePostgres());
    expect(store.hasReadPast).toBe(false);
    expect(store.continuesReadPast('in', 0, '0')).toBe(true);

    store.readPast('in', 0, 0n, 4n);
    store.readPast('in', 0, 4n, 6n);
    store.readPast('in', 1, 10n, 11n);

    expect(store.readPastRuns()).toEqual([
      expect.objectContaining({ topic: 'in', partition: 0, from: 0n, to: 6n }),
      expect.objectContaining({ topic: 'in', partition: 1, from: 10n, to: 11n }),
    ]);
    expect(store.continuesReadPast('in', 0, '6')).toBe(true);
    expect(store.continuesReadPast('in', 0, '7')).toBe(false);
    expect(store.readPastRuns(new Set(['in/0']))).toEqual([expect.objectContaining({ partition: 1 })]);

    store.committed([{ topic: 'in', partition: 0 }]);
    expect(store.readPastRuns()).toEqual([expect.objectContaining({ partition: 1 })]);
    store.rewound('in', 1, 10n);
    expect(store.hasReadPast).toBe(false);

    store.readPast('in', 2, 0n, 1n);
    store.forgetReadPast();
    expect(store.hasReadPast).toBe(false);
  });

  it('says when runs read past have waited long enough to be stored on their own', () => {
    const store = storeOn(new FakePostgres());
    const before = Date.now();
    store.readPast('in', 0, 0n, 1n);

    expect(store.readPastBy(before - 1)).toBe(false);
    expect(store.readPastBy(Date.now())).toBe(true);
  });
});
