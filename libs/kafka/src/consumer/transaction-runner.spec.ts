import { createEnvelope, type DecodedRecord } from '@cms/contracts';
import type { KafkaMessage } from 'kafkajs';

import {
  FakePostgres,
  kafkaMessage,
  NOTE_TYPE,
  noteEnvelope,
  noteRegistry,
  NoteWrittenV1,
  queryFailed,
  recordingLogger,
} from '../../test/fixtures/consumer-fakes';
import { CheckpointBehindError, CheckpointStore } from './checkpoint-store';
import { ConsumerTelemetry } from './consumer-telemetry';
import { DeadLetterWriter } from './dead-letter-writer';
import { PoisonRecordError } from './errors';
import type { ChunkHandler, RecordContext } from './record-context';
import { TransactionRunner, type Member, type TransactionRunnerOptions } from './transaction-runner';

const CONSUMER = 'notes';

/** Notes of a partition at offsets `from` on, one per seq. */
function notes(from: number, ...seqs: number[]): KafkaMessage[] {
  return seqs.map((seq, index) => kafkaMessage(from + index, noteEnvelope(seq)));
}

function member(partition: number, messages: KafkaMessage[], extra: Partial<Member> = {}): Member {
  return { topic: 'in', partition, messages, reject: new Map(), ...extra };
}

const seqOf = (record: DecodedRecord) => (record.data as { seq: number }).seq;

/** Notes that each stand for many: the chunk handler takes one even when it is alone. */
const BUNDLE_TYPE = 'test.note.bundled';

/** A runner over a fake Postgres; with `chunks`, a chunk handler that takes every note below seq 100. */
function setUp(options: Partial<TransactionRunnerOptions> = {}, { chunks = false } = {}) {
  const db = new FakePostgres();
  const { logger, lines } = recordingLogger();
  const checkpoints = new CheckpointStore(CONSUMER, db.dataSource);
  const telemetry = new ConsumerTelemetry(CONSUMER, undefined);
  /** What was applied, in order: `handle:<seq>` or `chunk:<seq>,<seq>`. */
  const applied: string[] = [];
  const rewinds: Array<[string, number, bigint, string]> = [];
  const runner = new TransactionRunner(
    {
      name: CONSUMER,
      dataSource: db.dataSource,
      registry: noteRegistry(),
      logger,
      handle: async (record: DecodedRecord, context: RecordContext) => {
        applied.push(`handle:${seqOf(record)}`);
        await context.manager.query('INSERT INTO notes VALUES ($1)', [seqOf(record)]);
        context.emit(
          'facts',
          createEnvelope({ type: 'test.note.kept', source: 'test', workspaceid: 'w1', data: {} }),
        );
      },
      ...(chunks ? { chunk: noteChunks(applied) } : {}),
      ...options,
    },
    checkpoints,
    new DeadLetterWriter({ name: CONSUMER, logger }),
    telemetry,
    (topic, partition, next, offsetInHand) => void rewinds.push([topic, partition, next, offsetInHand]),
  );
  return { db, lines, checkpoints, telemetry, applied, rewinds, runner };
}

/** Takes every note, and a lone one only when its text says so. */
function noteChunks(applied: string[]): ChunkHandler {
  return {
    takes: (record) => seqOf(record) < 100,
    worthAlone: (record) => record.type === BUNDLE_TYPE,
    apply: async (records) =>
      void applied.push(`chunk:${records.map(({ record }) => seqOf(record)).join(',')}`),
  };
}

describe('TransactionRunner', () => {
  it('applies the records above the stored checkpoint once, writes their facts and moves the checkpoint past the chunk', async () => {
    const { db, applied, telemetry, runner } = setUp();
    db.store(CONSUMER, 'in', 0, 12n);

    const wroteOutbox = await runner.run([member(0, notes(10, 1, 2, 3, 4))]);

    expect(applied).toEqual(['handle:3', 'handle:4']);
    expect(db.outbox.map((row) => row.topic)).toEqual(['facts', 'facts']);
    expect(wroteOutbox).toBe(true);
    expect(db.next(CONSUMER, 'in', 0)).toBe(14n);
    expect(db.transactions).toBe(1);
    expect(telemetry.stats).toMatchObject({ applied: 2, deadLettered: 0 });
  });

  it("applies the chunks of several partitions in one transaction, each in its partition's order", async () => {
    const { db, applied, runner } = setUp();

    await runner.run([member(0, notes(0, 1, 2)), member(3, notes(7, 3))]);

    expect(applied).toEqual(['handle:1', 'handle:2', 'handle:3']);
    expect(db.transactions).toBe(1);
    expect([db.next(CONSUMER, 'in', 0), db.next(CONSUMER, 'in', 3)]).toEqual([2n, 8n]);
  });

  it('hands runs of records the chunk handler takes to it together, in their place among the others', async () => {
    const { applied, runner } = setUp({}, { chunks: true });

    await runner.run([member(0, notes(0, 1, 2, 100, 3))]);

    expect(applied).toEqual(['chunk:1,2', 'handle:100', 'chunk:3']);
  });

  it('applies a lone record through the chunk handler only when it is worth it alone', async () => {
    const registry = noteRegistry().register({ type: BUNDLE_TYPE, version: 1, schema: NoteWrittenV1 });
    const { applied, runner } = setUp({ registry }, { chunks: true });
    const bundle = createEnvelope({
      type: BUNDLE_TYPE,
      source: 'test',
      workspaceid: 'w1',
      data: { text: 'alone', seq: 1 },
    });

    await runner.run([member(0, [kafkaMessage(0, bundle)])]);
    await runner.run([member(0, notes(1, 2))]);

    expect(applied).toEqual(['chunk:1', 'handle:2']);
  });

  it('leaves the chunk handler out of a transaction that dead-letters or looks for the record at fault', async () => {
    const locating = setUp({}, { chunks: true });
    await locating.runner.run([member(0, notes(0, 1, 2), { locate: true })]);
    const rejecting = setUp({}, { chunks: true });
    await rejecting.runner.run([
      member(0, notes(0, 1, 2), { reject: new Map([['0', new PoisonRecordError('no')]]) }),
    ]);

    expect(locating.applied).toEqual(['handle:1', 'handle:2']);
    expect(rejecting.applied).toEqual(['handle:2']);
    expect(rejecting.db.deadLetters).toHaveLength(1);
    expect(rejecting.telemetry.stats).toMatchObject({ applied: 1, deadLettered: 1 });
  });

  it('dead-letters the records it is told to, with the row alone when bare', async () => {
    const { db, runner } = setUp();

    await runner.run([
      member(0, notes(0, 1, 2), { reject: new Map([['1', new PoisonRecordError('no')]]), bare: true }),
    ]);

    expect(db.deadLetters.map((row) => row[3])).toEqual(['1']);
    // The only facts are the first record's: the bare dead letter publishes nothing.
    expect(db.outbox).toHaveLength(1);
    expect(db.next(CONSUMER, 'in', 0)).toBe(2n);
  });

  it("only moves the checkpoint past records of types the consumer does not apply, by header or by the record's type", async () => {
    const { db, applied, telemetry, runner } = setUp({ accepts: (type) => type === NOTE_TYPE });
    const other = createEnvelope({ type: 'test.other', source: 'test', workspaceid: 'w1', data: {} });

    await runner.run([
      member(0, [
        kafkaMessage(0, other),
        kafkaMessage(1, other, {}),
        kafkaMessage(2, noteEnvelope(1)),
        kafkaMessage(3, '{not json', {}),
      ]),
    ]);

    expect(applied).toEqual(['handle:1']);
    expect(db.deadLetters.map((row) => [row[3], row[6]])).toEqual([['3', 'malformed']]);
    expect(db.next(CONSUMER, 'in', 0)).toBe(4n);
    expect(telemetry.stats).toMatchObject({ applied: 1, deadLettered: 1 });
  });

  it('dead-letters a record it cannot decode and applies the records around it', async () => {
    const { db, applied, runner } = setUp();
    const invalid = kafkaMessage(1, { ...noteEnvelope(2), data: { text: 7 } });

    await runner.run([
      member(0, [kafkaMessage(0, noteEnvelope(1)), invalid, kafkaMessage(2, noteEnvelope(3))]),
    ]);

    expect(applied).toEqual(['handle:1', 'handle:3']);
    expect(db.deadLetters.map((row) => [row[3], row[6]])).toEqual([['1', 'invalid_data']]);
  });

  it('drops what records below the replay horizon emit, and reports whether anything went to the outbox', async () => {
    const { db, applied, runner } = setUp();
    db.horizons.set('in/0', 2n);

    expect(await runner.run([member(0, notes(0, 1, 2))])).toBe(false);
    expect(await runner.run([member(0, notes(2, 3))])).toBe(true);

    expect(applied).toEqual(['handle:1', 'handle:2', 'handle:3']);
    expect(db.outbox).toHaveLength(1);
  });

  it('names the record whose handler failed, and leaves nothing behind', async () => {
    const { db, runner, applied } = setUp();
    const failure = queryFailed('22P02', 'invalid input syntax');
    db.failWhen(
      (statement) => statement.sql.startsWith('INSERT INTO notes') && statement.params[0] === 2,
      failure,
    );

    await expect(runner.run([member(0, notes(0, 1)), member(1, notes(5, 2, 3))])).rejects.toBe(failure);

    expect(runner.culpritOf(failure)).toEqual({ topic: 'in', partition: 1, offset: '5' });
    expect(runner.culpritOf(new Error('another'))).toBeUndefined();
    expect(applied).toEqual(['handle:1', 'handle:2']);
    expect(db.checkpoints).toEqual([]);

    // The rows the rolled-back transaction created are created again.
    db.failWhen(() => false, undefined);
    await runner.run([member(1, notes(5, 2, 3))]);
    expect(db.next(CONSUMER, 'in', 1)).toBe(7n);
  });

  it('refuses records above the stored checkpoint, applying none of them', async () => {
    const { db, runner, applied } = setUp();
    db.store(CONSUMER, 'in', 0, 3n);

    await expect(runner.run([member(0, notes(5, 1))])).rejects.toBeInstanceOf(CheckpointBehindError);
    expect(applied).toEqual([]);
  });

  it('stores the checkpoints of partitions read past, and reads one again whose stored checkpoint is below the run', async () => {
    const { db, checkpoints, rewinds, runner } = setUp();
    db.store(CONSUMER, 'in', 2, 1n);
    checkpoints.readPast('in', 1, 0n, 6n);
    checkpoints.readPast('in', 2, 4n, 9n);

    await runner.run([member(0, notes(0, 1))], checkpoints.readPastRuns(new Set(['in/0'])));

    expect(db.next(CONSUMER, 'in', 1)).toBe(6n);
    expect(db.next(CONSUMER, 'in', 2)).toBe(1n);
    expect(rewinds).toEqual([['in', 2, 1n, 'read past']]);
    expect(checkpoints.hasReadPast).toBe(false);
  });

  it('writes a debug line for each record applied, once the transaction committed', async () => {
    const { lines, runner } = setUp();

    await runner.run([member(0, notes(0, 1, 2))]);

    expect(
      lines.filter((line) => line.message === 'record applied').map((line) => line.fields['offset']),
    ).toEqual(['0', '1']);
  });
});
