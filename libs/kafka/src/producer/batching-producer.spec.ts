import {
  KafkaJSProtocolError,
  type Kafka,
  type Producer,
  type ProducerBatch,
  type RecordMetadata,
} from 'kafkajs';

import { MAX_RECORD_BYTES, RecordTooLargeError } from '../records/record-bounds';
import { BatchingProducer } from './batching-producer';

/** The broker's answer once kafkajs' sequence numbers went wrong (protocol/error.js, code 45). */
function outOfOrderSequence(): KafkaJSProtocolError {
  return new KafkaJSProtocolError({
    type: 'OUT_OF_ORDER_SEQUENCE_NUMBER',
    code: 45,
    retriable: false,
    message: 'The broker received an out of order sequence number',
  } as unknown as Error);
}

/** A kafkajs producer that answers its sends from a script, one answer per send. */
class ScriptedProducer {
  readonly batches: ProducerBatch[] = [];
  connected = false;
  disconnected = false;

  constructor(private readonly answers: Array<Error | undefined>) {}

  async connect(): Promise<void> {
    this.connected = true;
  }

  async disconnect(): Promise<void> {
    this.disconnected = true;
  }

  async sendBatch(batch: ProducerBatch): Promise<RecordMetadata[]> {
    this.batches.push(batch);
    const answer = this.answers.shift();
    if (answer) throw answer;
    return (batch.topicMessages ?? []).map(({ topic }) => ({ topicName: topic, partition: 0, errorCode: 0 }));
  }
}

function kafkaMaking(...producers: ScriptedProducer[]): { kafka: Kafka; made: ScriptedProducer[] } {
  const made: ScriptedProducer[] = [];
  const logger = {
    warn: () => undefined,
    error: () => undefined,
    info: () => undefined,
    debug: () => undefined,
  };
  const kafka = {
    producer: () => {
      const next = producers[made.length];
      if (!next) throw new Error('no more producers scripted');
      made.push(next);
      return next as unknown as Producer;
    },
    logger: () => logger,
  } as unknown as Kafka;
  return { kafka, made };
}

const record = (value: string) => ({ key: 'w1', value });

describe('BatchingProducer', () => {
  it('replaces the kafkajs producer after an out-of-order sequence answer, and sends the next batch with the new one', async () => {
    const first = new ScriptedProducer([outOfOrderSequence()]);
    const second = new ScriptedProducer([]);
    const { kafka, made } = kafkaMaking(first, second);
    const producer = new BatchingProducer(kafka);
    await producer.connect();

    await expect(producer.send('facts', [record('a')])).rejects.toMatchObject({
      type: 'OUT_OF_ORDER_SEQUENCE_NUMBER',
    });
    await producer.send('facts', [record('b')]);

    expect(made).toEqual([first, second]);
    expect(first.disconnected).toBe(true);
    expect(second.connected).toBe(true);
    expect(
      second.batches.flatMap((batch) => batch.topicMessages!.flatMap((t) => t.messages.map((m) => m.value))),
    ).toEqual(['b']);
    expect(producer.replacedCount).toBe(1);
  });

  it('replaces it after a refused sendBatch too, before the caller hears of the failure', async () => {
    const first = new ScriptedProducer([outOfOrderSequence()]);
    const second = new ScriptedProducer([]);
    const { kafka } = kafkaMaking(first, second);
    const producer = new BatchingProducer(kafka);
    await producer.connect();

    await expect(producer.sendBatch([{ topic: 'facts', messages: [record('a')] }])).rejects.toBeInstanceOf(
      KafkaJSProtocolError,
    );
    await producer.sendBatch([{ topic: 'facts', messages: [record('a')] }]);

    expect(first.batches).toHaveLength(1);
    expect(second.batches).toHaveLength(1);
  });

  it('refuses a record over the bound without sending it, and keeps its producer', async () => {
    const only = new ScriptedProducer([]);
    const { kafka, made } = kafkaMaking(only);
    const producer = new BatchingProducer(kafka);
    await producer.connect();

    await expect(producer.send('requests', [record('x'.repeat(MAX_RECORD_BYTES))])).rejects.toBeInstanceOf(
      RecordTooLargeError,
    );
    await producer.send('requests', [record('fine')]);

    expect(made).toEqual([only]);
    expect(only.batches).toHaveLength(1);
  });

  it('cuts a produce request by bytes, so that no partition batch outgrows the topic limit', async () => {
    const only = new ScriptedProducer([]);
    const { kafka } = kafkaMaking(only);
    const producer = new BatchingProducer(kafka, { maxBatchBytes: 1000 });
    await producer.connect();

    await Promise.all(
      Array.from({ length: 5 }, (_, index) => producer.send('facts', [record(`${index}`.repeat(400))])),
    );

    const sizes = only.batches.map((batch) => batch.topicMessages!.flatMap((t) => t.messages).length);
    expect(sizes).toEqual([2, 2, 1]);
  });
});
