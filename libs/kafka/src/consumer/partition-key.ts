/** The key of a partition in `until` maps, and in the consumer's own bookkeeping per partition. */
export function partitionKey(topic: string, partition: number): string {
  return `${topic}/${partition}`;
}
