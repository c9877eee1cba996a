import { createEnvelope, type DecodedRecord } from '@cms/contracts';
import { eventually, uniqueName } from '@cms/testing';
import type { Message } from 'kafkajs';
import type { DataSource } from 'typeorm';

import { APART_RECORDS, ConsumerRuntime, longPoll, type ChunkHandler, type ChunkRecord } from '../src';
import {
  COUNTER_ENTITIES,
  COUNTER_MIGRATIONS,
  COUNTER_TYPE,
  counterConsumer,
  counterHandler,
  counterMessage,
  counterRegistry,
  CounterIncrementedV1,
} from './fixtures/counter';
import { useKafkaSuite } from './fixtures/kafka-suite';

/**
 * A record worth a transaction of its own (a batch of many requests, long to apply), or a live
 * consumer's chunk of APART_RECORDS records or more (one partition's flood), holds up neither the
 * records of other partitions, which are fetched and committed while it is applied, nor its own
 * partition's order: the records behind it are applied after it, each once.
 */
const suite = useKafkaSuite('worth-alone-test');

/** An increment that stands for many: applied by the chunk handler, in a transaction of its own. */
const BULK_TYPE = 'test.counter.bulk-incremented';

function bulkMessage(counter: string, seq: number): Message {
  const envelope = createEnvelope({
    type: BULK_TYPE,
    source: 'test',
    workspaceid: counter,
    data: { counter, amount: 1, seq },
  });
  return { key: counter, value: JSON.stringify(envelope), headers: { ce_type: BULK_TYPE } };
}

const at = (partition: number, message: Message): Message => ({ ...message, partition });

async function appliedSeqs(dataSource: DataSource): Promise<Array<{ seq: number; times: number }>> {
  return dataSource.query('SELECT seq, times FROM applied ORDER BY seq');
}

/**
 * A chunk handler that applies counter and bulk records, holding each bulk record until `release()`;
 * `applied(seq)` is told of every record applied, in order.
 */
function heldBulkChunk(apply: ReturnType<typeof counterHandler>, applied?: (seq: number) => void) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const held = { started: false, release: () => release() };
  const chunk: ChunkHandler = {
    takes: (record) => record.type === BULK_TYPE || record.type === COUNTER_TYPE,
    worthAlone: (record) => record.type === BULK_TYPE,
    async apply(records: ChunkRecord[]) {
      for (const { record, context, inSpan } of records) {
        if (record.type === BULK_TYPE) {
          held.started = true;
          await released;
        }
        await inSpan(() => apply(record, context));
        applied?.((record.data as CounterIncrementedV1).seq);
      }
    },
  };
  return { chunk, held };
}

describe('a record worth a transaction of its own', () => {
  it('is applied apart: other partitions commit meanwhile, and its own records follow it in order', async () => {
    const { dataSource } = await suite.schema(COUNTER_ENTITIES, COUNTER_MIGRATIONS);
    const [input, facts] = await suite.topics(
      { prefix: 'alone-in', partitions: 2 },
      { prefix: 'alone-facts', partitions: 1 },
    );
    const apply = counterHandler(facts!);
    /** The order records were applied in, by seq. */
    const order: number[] = [];
    const { chunk, held } = heldBulkChunk(apply, (seq) => order.push(seq));
    const runtime = new ConsumerRuntime({
      ...counterConsumer(suite, dataSource, uniqueName('alone'), input!, facts!),
      registry: counterRegistry().register({ type: BULK_TYPE, version: 1, schema: CounterIncrementedV1 }),
      handle: async (record: DecodedRecord, context) => {
        await apply(record, context);
        order.push((record.data as CounterIncrementedV1).seq);
      },
      chunk,
    });
    await runtime.start();
    try {
      await suite.producer.send(input!, [at(0, bulkMessage('a', 0)), at(0, counterMessage('a', 1))]);
      await eventually('the bulk record being applied', () => Promise.resolve(held.started));

      await suite.producer.send(input!, [at(1, counterMessage('c', 10))]);
      await suite.producer.send(input!, [at(1, counterMessage('c', 11))]);
      await eventually(
        "the other partition's records committed",
        async () => (await appliedSeqs(dataSource)).length === 2,
      );
      expect(await appliedSeqs(dataSource)).toEqual([
        { seq: 10, times: 1 },
        { seq: 11, times: 1 },
      ]);

      await suite.producer.send(input!, [at(0, counterMessage('a', 2))]);
      held.release();
      await eventually('every record applied', async () => (await appliedSeqs(dataSource)).length === 5);
      expect(await appliedSeqs(dataSource)).toEqual([0, 1, 2, 10, 11].map((seq) => ({ seq, times: 1 })));
      expect(order.filter((seq) => seq < 10)).toEqual([0, 1, 2]);
    } finally {
      held.release();
      await runtime.stop();
    }
  });

  it("does not leave its partition's next records waiting for a whole long poll once applied", async () => {
    const { dataSource } = await suite.schema(COUNTER_ENTITIES, COUNTER_MIGRATIONS);
    const [input, facts] = await suite.topics(
      // One partition: while it is paused there is nothing to fetch, and kafkajs sleeps the wait instead.
      { prefix: 'alone-poll-in', partitions: 1 },
      { prefix: 'alone-poll-facts', partitions: 1 },
    );
    const apply = counterHandler(facts!);
    const { chunk, held } = heldBulkChunk(apply);
    // A long poll far longer than applying a record takes on the busiest machine: nothing else comes,
    // so a fetch in flight when the partition resumes would hold its next record for all of it.
    const waitMs = 40_000;
    const runtime = new ConsumerRuntime({
      ...counterConsumer(suite, dataSource, uniqueName('alone-poll'), input!, facts!),
      registry: counterRegistry().register({ type: BULK_TYPE, version: 1, schema: CounterIncrementedV1 }),
      sessionTimeoutMs: 3 * waitMs,
      fetch: longPoll(waitMs),
      chunk,
    });
    await runtime.start();
    try {
      await suite.producer.send(input!, [at(0, bulkMessage('a', 0))]);
      await eventually('the bulk record being applied', () => Promise.resolve(held.started));
      // Written while the bulk record is applied: fetched once the partition resumes.
      await suite.producer.send(input!, [at(0, counterMessage('a', 1))]);
      const releasedAt = Date.now();
      held.release();
      await eventually(
        'the bulk record and the one behind it applied',
        async () => (await appliedSeqs(dataSource)).length === 2,
        2 * waitMs,
      );
      expect(Date.now() - releasedAt).toBeLessThan(waitMs / 2);
      expect(await appliedSeqs(dataSource)).toEqual([0, 1].map((seq) => ({ seq, times: 1 })));
    } finally {
      held.release();
      // A record answers the long poll in flight, so the stop does not wait for it.
      await suite.producer.send(input!, [at(0, counterMessage('b', 2))]);
      await runtime.stop();
    }
  }, 180_000);
});

describe("a partition's flood", () => {
  it('is applied apart: another partition commits meanwhile, and the flood follows in order, once each', async () => {
    const { dataSource } = await suite.schema(COUNTER_ENTITIES, COUNTER_MIGRATIONS);
    const [input, facts] = await suite.topics(
      { prefix: 'flood-in', partitions: 2 },
      { prefix: 'flood-facts', partitions: 1 },
    );
    const apply = counterHandler(facts!);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let floodHeld = false;
    const order: number[] = [];
    // Holds the first chunk of the flood (one of APART_RECORDS records or more) until released.
    const chunk: ChunkHandler = {
      takes: (record) => record.type === COUNTER_TYPE,
      async apply(records: ChunkRecord[]) {
        if (records.length >= APART_RECORDS && !floodHeld) {
          floodHeld = true;
          await released;
        }
        for (const { record, context, inSpan } of records) {
          await inSpan(() => apply(record, context));
          order.push((record.data as CounterIncrementedV1).seq);
        }
      },
    };
    const runtime = new ConsumerRuntime({
      ...counterConsumer(suite, dataSource, uniqueName('flood'), input!, facts!),
      chunk,
    });
    const flood = 2 * APART_RECORDS;
    await runtime.start();
    try {
      await suite.producer.send(
        input!,
        Array.from({ length: flood }, (_, seq) => at(0, counterMessage('a', seq))),
      );
      await eventually('the flood being applied', () => Promise.resolve(floodHeld));

      // Written while the flood's chunk is under way: fetched and committed beside it.
      await suite.producer.send(input!, [at(1, counterMessage('b', 100_000))]);
      await eventually(
        'the other partition committed',
        async () => (await appliedSeqs(dataSource)).length === 1,
      );
      expect(await appliedSeqs(dataSource)).toEqual([{ seq: 100_000, times: 1 }]);

      release();
      await eventually(
        'the whole flood applied',
        async () => (await appliedSeqs(dataSource)).length === flood + 1,
        60_000,
      );
      expect((await appliedSeqs(dataSource)).filter((row) => row.times !== 1)).toEqual([]);
      expect(order.filter((seq) => seq < flood)).toEqual(Array.from({ length: flood }, (_, seq) => seq));
    } finally {
      release();
      await runtime.stop();
    }
  });
});
