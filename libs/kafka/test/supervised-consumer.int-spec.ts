import { eventually, uniqueName } from '@cms/testing';
import { KafkaJSNonRetriableError, type Consumer } from 'kafkajs';
import pino from 'pino';

import { SupervisedConsumer } from '../src/consumer/supervised-consumer';
import { useKafkaSuite } from './fixtures/kafka-suite';

/**
 * kafkajs gives up on a consumer after an error it does not call retriable (after a broker restart:
 * "Failed to find group coordinator"); the process must not go on without one. Here the error comes
 * from the handler, which takes kafkajs down the same crash path without stopping the broker.
 */
const suite = useKafkaSuite('supervised-consumer-test');

describe('a supervised consumer', () => {
  it('starts a new consumer in the same group after kafkajs gave up, and reads on from there', async () => {
    const [topic] = await suite.topics({ prefix: 'supervised', partitions: 1 });
    await suite.producer.send(topic!, [{ value: 'first' }]);
    const groupId = uniqueName('supervised');
    const lines: string[] = [];
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => void lines.push((JSON.parse(line) as { msg: string }).msg) },
    );
    const made: Consumer[] = [];
    const crashes: Array<{ restart: boolean }> = [];
    const read: string[] = [];
    let failNext = true;
    const supervised = new SupervisedConsumer({
      logger,
      initialDelayMs: 200,
      create: () => {
        const consumer = suite.kafka.consumer({ groupId, retry: { retries: 0 } });
        made.push(consumer);
        return consumer;
      },
      run: async (consumer) => {
        consumer.on(consumer.events.CRASH, (event) => void crashes.push({ restart: event.payload.restart }));
        await consumer.connect();
        await consumer.subscribe({ topic: topic!, fromBeginning: true });
        await consumer.run({
          eachMessage: async ({ message }) => {
            if (failNext) {
              failNext = false;
              throw new KafkaJSNonRetriableError('the handler gave up');
            }
            read.push(message.value!.toString());
          },
        });
      },
    });
    try {
      await supervised.start();
      await eventually('the crash', async () => crashes.length > 0);
      expect(crashes[0]).toEqual({ restart: false });
      await eventually('the record read by a new consumer', async () => read.includes('first'), 30000);
      expect(made.length).toBe(2);
      expect(supervised.consumer).toBe(made[1]);
      expect(lines).toContain('the Kafka consumer stopped for good; starting a new one');
      // The new consumer goes on reading as any would.
      await suite.producer.send(topic!, [{ value: 'second' }]);
      await eventually('the next record', async () => read.includes('second'), 30000);
      expect(read).toEqual(['first', 'second']);
    } finally {
      await supervised.stop();
    }
  });

  it('starts nothing new once stopped, even when the crash came before', async () => {
    const [topic] = await suite.topics({ prefix: 'supervised-stop', partitions: 1 });
    await suite.producer.send(topic!, [{ value: 'x' }]);
    let made = 0;
    let crashed = false;
    const supervised = new SupervisedConsumer({
      logger: suite.logger,
      initialDelayMs: 1500,
      create: () => {
        made += 1;
        return suite.kafka.consumer({ groupId: uniqueName('supervised-stop'), retry: { retries: 0 } });
      },
      run: async (consumer) => {
        consumer.on(consumer.events.CRASH, () => void (crashed = true));
        await consumer.connect();
        await consumer.subscribe({ topic: topic!, fromBeginning: true });
        await consumer.run({
          eachMessage: async () => {
            throw new KafkaJSNonRetriableError('always');
          },
        });
      },
    });
    await supervised.start();
    await eventually('the crash', async () => crashed);
    await supervised.stop();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(made).toBe(1);
  });
});
