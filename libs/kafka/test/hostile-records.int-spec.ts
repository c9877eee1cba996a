import {
  createEnvelope,
  DEAD_LETTER_TYPE,
  OUTCOME_TYPES,
  RecordTypeRegistry,
  rejectedOutcome,
  type DecodedRecord,
} from '@cms/contracts';
import { eventually, uniqueName, uniqueTopic } from '@cms/testing';
import { IsInt, IsString, Min } from 'class-validator';
import type { EachMessagePayload, Message } from 'kafkajs';
import pino from 'pino';
import { Registry } from 'prom-client';
import type { DataSource, EntityManager, MigrationInterface, QueryRunner } from 'typeorm';

import {
  ConsumerRuntime,
  DEAD_LETTER_VALUE_BYTES,
  ensureTopics,
  KAFKA_PLUMBING_ENTITIES,
  KAFKA_PLUMBING_MIGRATIONS,
  MAX_RECORD_BYTES,
  OutboxRelay,
  TOPIC_MAX_MESSAGE_BYTES,
  type ChunkHandler,
  type ChunkRecord,
  type RecordContext,
} from '../src';
import { useKafkaSuite } from './fixtures/kafka-suite';

/**
 * A record whose content the database or the record bound refuses is dead-lettered on its first try,
 * with a rejected outcome, and the records behind it in its partition are applied at once.
 */
const suite = useKafkaSuite('hostile-records-test');

const NOTE_TYPE = 'test.note.written';
const NOTED_TYPE = 'test.note.noted';

class NoteWrittenV1 {
  @IsString()
  note!: string;

  /** Bytes of padding the handler puts into the fact it publishes. */
  @IsInt()
  @Min(0)
  factPadding!: number;

  @IsInt()
  @Min(0)
  seq!: number;
}

class NotesProjection1763770000002 implements MigrationInterface {
  name = 'NotesProjection1763770000002';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      'CREATE TABLE notes (seq integer PRIMARY KEY, note text NOT NULL, body jsonb NOT NULL)',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE notes');
  }
}

interface Topics {
  input: string;
  facts: string;
  outcomes: string;
  deadLetters: string;
}

/** Topics as `ops topics create` makes them: `max.message.bytes` set, so large records get through. */
async function topics(): Promise<Topics> {
  const made: Topics = {
    input: uniqueTopic('notes-in'),
    facts: uniqueTopic('notes-facts'),
    outcomes: uniqueTopic('notes-outcomes'),
    deadLetters: uniqueTopic('notes-dead'),
  };
  const config = { 'max.message.bytes': String(TOPIC_MAX_MESSAGE_BYTES) };
  await ensureTopics(
    suite.admin,
    Object.values(made).map((name: string) => ({ name, partitions: name === made.input ? 2 : 1, config })),
  );
  suite.own(...Object.values(made));
  return made;
}

function note(seq: number, text: string, partition: number, factPadding = 0): Message {
  const envelope = createEnvelope({
    type: NOTE_TYPE,
    source: 'test',
    workspaceid: `w${partition}`,
    data: { note: text, seq, factPadding },
  });
  return {
    partition,
    key: `w${partition}`,
    value: JSON.stringify(envelope),
    headers: { ce_type: NOTE_TYPE },
  };
}

interface Observed {
  /** Handler calls per seq, committed or rolled back. */
  calls: Map<number, number>;
  /** When a handler last applied each seq, in the transaction that then committed or not. */
  appliedAt: Map<number, number>;
  /** When a handler first failed. */
  firstFailureAt?: number;
  retryLines: number;
  /** While set, the handler fails as while Postgres shuts down. */
  infrastructureDown: boolean;
}

async function insertNotes(manager: EntityManager, notes: NoteWrittenV1[]): Promise<void> {
  await manager.query(
    `INSERT INTO notes (seq, note, body)
     SELECT * FROM unnest($1::int[], $2::text[], $3::jsonb[])`,
    [notes.map((n) => n.seq), notes.map((n) => n.note), notes.map((n) => JSON.stringify({ note: n.note }))],
  );
}

function emitFact(record: DecodedRecord, context: RecordContext, facts: string): void {
  const data = record.data as NoteWrittenV1;
  context.emit(
    facts,
    createEnvelope({
      type: NOTED_TYPE,
      source: 'test',
      workspaceid: record.workspaceid,
      correlationid: record.correlationid,
      causationid: record.id,
      data: { seq: data.seq, padding: 'x'.repeat(data.factPadding) },
    }),
  );
}

async function startNotes(
  withChunk: boolean,
  /** The answer to a refused note is too large to publish, so dead-lettering it fails too. */
  answerTooLarge = false,
  /** Long enough that a backoff taken would show in the timings. */
  retryBackoffMs = { initial: 500, max: 1000 },
): Promise<{
  runtime: ConsumerRuntime;
  relay: OutboxRelay;
  dataSource: DataSource;
  topics: Topics;
  observed: Observed;
  name: string;
  metrics: Registry;
}> {
  const made = await topics();
  const { schema, dataSource } = await suite.schema(KAFKA_PLUMBING_ENTITIES, [
    ...KAFKA_PLUMBING_MIGRATIONS,
    NotesProjection1763770000002,
  ]);
  const observed: Observed = {
    calls: new Map(),
    appliedAt: new Map(),
    retryLines: 0,
    infrastructureDown: false,
  };
  const failed = (): void => {
    observed.firstFailureAt ??= Date.now();
  };
  const logger = pino(
    { level: 'warn' },
    {
      write(line: string) {
        if (/retrying/.test(line)) observed.retryLines += 1;
      },
    },
  );
  const relay = suite.relay(schema, dataSource);
  relay.start();
  const chunk: ChunkHandler = {
    takes: (record) => record.type === NOTE_TYPE,
    async apply(records: ChunkRecord[], manager: EntityManager) {
      for (const { record } of records) {
        const { seq } = record.data as NoteWrittenV1;
        observed.calls.set(seq, (observed.calls.get(seq) ?? 0) + 1);
      }
      try {
        await insertNotes(
          manager,
          records.map(({ record }) => record.data as NoteWrittenV1),
        );
      } catch (error) {
        failed();
        throw error;
      }
      for (const { record, context, inSpan } of records) {
        await inSpan(async () => emitFact(record, context, made.facts));
        observed.appliedAt.set((record.data as NoteWrittenV1).seq, Date.now());
      }
    },
  };
  const name = uniqueName('notes');
  const metrics = new Registry();
  const runtime = new ConsumerRuntime({
    name,
    topics: [made.input],
    kafka: suite.kafka,
    dataSource,
    registry: new RecordTypeRegistry().register({ type: NOTE_TYPE, version: 1, schema: NoteWrittenV1 }),
    logger,
    metrics,
    deadLetterTopic: made.deadLetters,
    sessionTimeoutMs: 10000,
    retryBackoffMs,
    ...(withChunk ? { chunk } : {}),
    handle: async (record, context) => {
      const data = record.data as NoteWrittenV1;
      observed.calls.set(data.seq, (observed.calls.get(data.seq) ?? 0) + 1);
      if (observed.infrastructureDown) {
        throw Object.assign(new Error('terminating connection due to administrator command'), {
          code: '57P01',
        });
      }
      try {
        await insertNotes(context.manager, [data]);
        emitFact(record, context, made.facts);
        observed.appliedAt.set(data.seq, Date.now());
      } catch (error) {
        failed();
        throw error;
      }
    },
    onRejected: async ({ record, errorId }, context) => {
      if (!record) return;
      context.emit(
        made.outcomes,
        rejectedOutcome(record, 'test', 422, [
          {
            status: '422',
            title: 'Unprocessable Entity',
            detail: answerTooLarge ? 'x'.repeat(MAX_RECORD_BYTES) : 'The note was refused.',
            id: errorId,
          },
        ]),
      );
    },
    onOutboxWritten: () => relay.kick(),
  });
  await runtime.start();
  // Its first fetch may come before it seeks to the stored checkpoints, and the seek would cut short
  // (and so repeat) what that fetch brought: the records under test come once both are behind it.
  await suite.producer.send(made.input, [note(1000, 'warm-up', 0), note(1001, 'warm-up', 1)]);
  await eventually('the warm-up applied', async () => runtime.stats.applied === 2);
  await new Promise((resolve) => setTimeout(resolve, 300));
  await dataSource.query('DELETE FROM notes');
  observed.calls.clear();
  observed.appliedAt.clear();
  return { runtime, relay, dataSource, topics: made, observed, name, metrics };
}

/** Reads a topic from the beginning until `count` records came. */
async function read(topic: string, count: number): Promise<Array<Record<string, unknown>>> {
  const consumer = suite.kafka.consumer({ groupId: uniqueName('reader'), maxWaitTimeInMs: 50 });
  const seen = new Map<string, Record<string, unknown>>();
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message, partition }: EachMessagePayload) => {
      seen.set(
        `${partition}/${message.offset}`,
        JSON.parse(message.value!.toString()) as Record<string, unknown>,
      );
    },
  });
  try {
    await eventually(`${count} records on ${topic}`, async () => seen.size >= count, 30000);
  } finally {
    await consumer.disconnect();
  }
  return [...seen.values()];
}

const NUL = String.fromCharCode(0);

/** Rounds of the calm phase a timing is compared with; its slowest round is the figure. */
const CALM_ROUNDS = 5;

/**
 * The calm phase of a test: healthy batches of the shape the test then sends (four records on
 * partition 0, one on partition 1), one at a time, on this machine as it is now. Answers the slowest
 * round's time from its sending to its last record of partition 0 applied, and leaves the table and the
 * observations as it found them.
 */
async function healthyBatchMs(made: Topics, observed: Observed, dataSource: DataSource): Promise<number> {
  let slowest = 0;
  for (let round = 0; round < CALM_ROUNDS; round += 1) {
    const seq = 100 + round * 10;
    const sentAt = Date.now();
    await suite.producer.send(made.input, [
      note(seq + 1, 'calm', 0),
      note(seq + 2, 'calm', 0),
      note(seq + 3, 'calm', 0),
      note(seq + 4, 'calm', 0),
      note(seq + 5, 'calm', 1),
    ]);
    await eventually('the healthy batch committed', async () => {
      const rows: Array<{ count: number }> = await dataSource.query(
        'SELECT count(*)::int AS count FROM notes',
      );
      return rows[0]!.count === 5 * (round + 1);
    });
    slowest = Math.max(slowest, observed.appliedAt.get(seq + 4)! - sentAt);
  }
  await dataSource.query('DELETE FROM notes');
  observed.calls.clear();
  observed.appliedAt.clear();
  return slowest;
}

/** The first backoff of the refused note's consumer, were it to retry: longer than a busy machine's delays. */
const REFUSED_BACKOFF_MS = 5000;

describe.each([
  ['applied one by one', false],
  ['applied together by a chunk handler', true],
])('a record the database refuses for its content, %s', (_, withChunk) => {
  it('is dead-lettered on its first try with a rejected outcome, and the records behind it are applied without waiting a backoff', async () => {
    const {
      runtime,
      relay,
      dataSource,
      topics: made,
      observed,
      name,
    } = await startNotes(withChunk, false, { initial: REFUSED_BACKOFF_MS, max: REFUSED_BACKOFF_MS });
    const calmMs = await healthyBatchMs(made, observed, dataSource);
    await suite.producer.send(made.input, [
      note(1, 'first', 0),
      note(2, `nul${NUL}in text`, 0),
      note(3, 'third', 0),
      note(4, 'fourth', 0),
      note(5, 'elsewhere', 1),
    ]);

    await eventually('the good notes applied', async () => {
      const rows: Array<{ count: number }> = await dataSource.query(
        'SELECT count(*)::int AS count FROM notes',
      );
      return rows[0]!.count === 4;
    });

    const applied: Array<{ seq: number }> = await dataSource.query('SELECT seq FROM notes ORDER BY seq');
    expect(applied.map((row) => row.seq)).toEqual([1, 3, 4, 5]);
    const letters: Array<{ offset: string; reason: string; detail: string }> = await dataSource.query(
      'SELECT "offset"::text AS offset, reason, detail FROM dead_letters WHERE consumer = $1',
      [name],
    );
    // Offset 0 is the warm-up's, the calm phase's four a round follow: the refused note is the second after.
    const offset = String(1 + CALM_ROUNDS * 4 + 1);
    expect(letters).toEqual([{ offset, reason: 'handler_failed', detail: expect.stringMatching(/0x00/) }]);
    // Dead-lettered on the first failure: neither a backoff nor another attempt.
    expect(observed.retryLines).toBe(0);
    if (!withChunk) expect(observed.calls.get(2)).toBe(1);
    // The records behind it waited for it (§6: 50 ms at most) no longer than the slowest healthy batch of
    // the calm phase took from its sending to its application, five times over (its way there is a few
    // transactions, the calm batch's one), or, when a busy machine stretched them past it, than the
    // backoff a retry would have waited first: a backoff taken shows as a wait longer than both, and a
    // retry (the log, the calls) on any machine.
    const waited = observed.appliedAt.get(4)! - observed.firstFailureAt!;
    const bound = Math.max(5 * calmMs + 50, REFUSED_BACKOFF_MS);
    expect({ waited, calmMs, within: waited < bound }).toEqual({ waited, calmMs, within: true });

    const outcomes = await read(made.outcomes, 1);
    expect(outcomes.map((outcome) => [outcome.type, (outcome.data as { status: number }).status])).toEqual([
      [OUTCOME_TYPES.rejected, 422],
    ]);
    const [deadLetter] = await read(made.deadLetters, 1);
    expect(deadLetter).toMatchObject({
      type: DEAD_LETTER_TYPE,
      data: { offset, reason: 'handler_failed', truncated: false },
    });

    await runtime.stop();
    await relay.stop();
  });
});

describe('a dead letter of a large record', () => {
  it('copies the first bytes of it onto the topic, and keeps all of it in dead_letters', async () => {
    const { runtime, relay, dataSource, topics: made, name } = await startNotes(false);
    // Larger than a dead letter copies, and refused by Postgres for the NUL at its end.
    const long = `${'y'.repeat(DEAD_LETTER_VALUE_BYTES + 1000)}${NUL}`;
    await suite.producer.send(made.input, [note(1, long, 0), note(2, 'after', 0)]);

    await eventually('the note after it applied', async () => {
      const rows: Array<{ count: number }> = await dataSource.query(
        'SELECT count(*)::int AS count FROM notes',
      );
      return rows[0]!.count === 1;
    });
    const [deadLetter] = await read(made.deadLetters, 1);
    const data = deadLetter!.data as { value: string; value_bytes: number; truncated: boolean };
    expect(data.truncated).toBe(true);
    expect(Buffer.from(data.value, 'base64').length).toBe(DEAD_LETTER_VALUE_BYTES);
    expect(data.value_bytes).toBeGreaterThan(DEAD_LETTER_VALUE_BYTES);
    const stored: Array<{ bytes: number }> = await dataSource.query(
      'SELECT octet_length(value) AS bytes FROM dead_letters WHERE consumer = $1',
      [name],
    );
    expect(stored).toEqual([{ bytes: data.value_bytes }]);

    await runtime.stop();
    await relay.stop();
  });
});

describe('a record whose correlation id holds a NUL', () => {
  it('goes through (its fact, its dead letter) without stopping the records behind it', async () => {
    const { runtime, relay, dataSource, topics: made, observed } = await startNotes(false);
    const odd = JSON.parse(String(note(1, 'odd id', 0).value)) as Record<string, unknown>;
    odd.correlationid = `corr${NUL}elation`;
    const refused = JSON.parse(String(note(2, `refused${NUL}`, 0).value)) as Record<string, unknown>;
    refused.correlationid = `corr${NUL}elation`;
    await suite.producer.send(made.input, [
      { partition: 0, key: 'w0', value: JSON.stringify(odd), headers: { ce_type: NOTE_TYPE } },
      { partition: 0, key: 'w0', value: JSON.stringify(refused), headers: { ce_type: NOTE_TYPE } },
      note(3, 'after', 0),
    ]);

    await eventually('the note after them applied', async () => {
      const rows: Array<{ seq: number }> = await dataSource.query('SELECT seq FROM notes WHERE seq = 3');
      return rows.length === 1;
    });
    expect(observed.retryLines).toBe(0);
    await eventually('the outbox drained', async () => (await relay.backlog()) === 0);
    const [deadLetter] = await read(made.deadLetters, 1);
    expect(deadLetter).toMatchObject({ type: DEAD_LETTER_TYPE, data: { offset: '2' } });

    await runtime.stop();
    await relay.stop();
  });
});

describe('a record whose handler would publish a fact over the record bound', () => {
  it('is dead-lettered at once with a rejected outcome; nothing over the bound reaches the outbox', async () => {
    const { runtime, relay, dataSource, topics: made, observed, name } = await startNotes(false);
    await suite.producer.send(made.input, [
      note(1, 'small', 0),
      note(2, 'huge fact', 0, MAX_RECORD_BYTES),
      note(3, 'after', 0),
    ]);

    await eventually('the notes around it applied', async () => {
      const rows: Array<{ count: number }> = await dataSource.query(
        'SELECT count(*)::int AS count FROM notes',
      );
      return rows[0]!.count === 2;
    });
    const letters: Array<{ reason: string }> = await dataSource.query(
      'SELECT reason FROM dead_letters WHERE consumer = $1',
      [name],
    );
    expect(letters).toEqual([{ reason: 'record_too_large' }]);
    expect(observed.calls.get(2)).toBe(1);
    expect(observed.retryLines).toBe(0);
    const outcomes = await read(made.outcomes, 1);
    expect(outcomes.map((outcome) => outcome.type)).toEqual([OUTCOME_TYPES.rejected]);
    const facts = await read(made.facts, 4);
    expect(facts.map((fact) => (fact.data as { seq: number }).seq).filter((seq) => seq < 1000)).toEqual([
      1, 3,
    ]);
    await eventually('the outbox drained', async () => (await relay.backlog()) === 0);

    await runtime.stop();
    await relay.stop();
  });
});

describe('a consumer whose database is away', () => {
  it('keeps retrying the record without losing its place, and shows for how long it has not moved', async () => {
    const { runtime, relay, dataSource, topics: made, observed, metrics, name } = await startNotes(false);
    expect(runtime.stalledMs()).toBe(0);
    observed.infrastructureDown = true;
    await suite.producer.send(made.input, [note(1, 'waits', 0), note(2, 'behind it', 0)]);

    await eventually('stalled for a second', async () => runtime.stalledMs() >= 1000, 10000);
    expect(await metrics.getSingleMetricAsString('cms_consumer_stalled_seconds')).toMatch(
      new RegExp(`cms_consumer_stalled_seconds\\{consumer="${name}"\\} [1-9]`),
    );
    expect(observed.calls.get(1)!).toBeGreaterThan(1);
    observed.infrastructureDown = false;
    await eventually('both applied', async () => {
      const rows: Array<{ count: number }> = await dataSource.query(
        'SELECT count(*)::int AS count FROM notes',
      );
      return rows[0]!.count === 2;
    });
    await eventually('moving again', async () => runtime.stalledMs() === 0);
    const letters: unknown[] = await dataSource.query('SELECT 1 FROM dead_letters');
    expect(letters).toEqual([]);

    await runtime.stop();
    await relay.stop();
  });
});

describe('a refused record whose dead-lettering fails as well', () => {
  it('is dead-lettered with its row alone, and the records behind it are applied', async () => {
    const { runtime, relay, dataSource, topics: made, name } = await startNotes(false, true);
    await suite.producer.send(made.input, [
      note(1, 'before', 0),
      note(2, `nul${NUL}`, 0),
      note(3, 'after', 0),
    ]);

    await eventually('the notes around it applied', async () => {
      const rows: Array<{ count: number }> = await dataSource.query(
        'SELECT count(*)::int AS count FROM notes',
      );
      return rows[0]!.count === 2;
    });
    const letters: Array<{ offset: string }> = await dataSource.query(
      'SELECT "offset"::text AS offset FROM dead_letters WHERE consumer = $1',
      [name],
    );
    expect(letters).toEqual([{ offset: '2' }]);
    await eventually('the outbox drained', async () => (await relay.backlog()) === 0);
    const facts = await read(made.facts, 4);
    expect(facts.map((fact) => (fact.data as { seq: number }).seq).filter((seq) => seq < 1000)).toEqual([
      1, 3,
    ]);

    await runtime.stop();
    await relay.stop();
  });
});
