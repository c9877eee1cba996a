import { eventually, uniqueName } from '@cms/testing';
import type { Kafka } from 'kafkajs';

/** Reads a topic from the beginning until `until` holds for the values read so far. */
export async function readTopic(
  kafka: Kafka,
  topic: string,
  until: (values: string[]) => boolean,
): Promise<string[]> {
  const consumer = kafka.consumer({ groupId: uniqueName('reader'), maxWaitTimeInMs: 50 });
  const values: string[] = [];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => void values.push(message.value?.toString() ?? ''),
  });
  try {
    await eventually(`records on ${topic}`, async () => until(values), 20_000);
  } finally {
    await consumer.disconnect();
  }
  return values;
}
