import type { DecodedRecord } from '@cms/contracts';
import type { KafkaMessage } from 'kafkajs';
import type { Registry, RegistryContentType } from 'prom-client';

import { kafkaMetrics, type KafkaMetrics } from '../telemetry/kafka-metrics';
import { headerText, traceIdOf } from '../telemetry/trace-headers';
import { partitionKey } from './partition-key';

/** Where the records of a partition stand, for how long they have waited (see stalledMs). */
interface Progress {
  position: bigint;
  highWatermark: bigint;
  /** Since when records have waited at `position`. */
  since: number;
}

export interface ConsumerStats {
  applied: number;
  deadLettered: number;
  assigned: boolean;
  lastError: string | undefined;
}

/** What a log line about one record carries, from its headers when it could not be decoded. */
export function recordFields(
  topic: string,
  partition: number,
  message: KafkaMessage,
  record?: DecodedRecord | null,
): Record<string, string | number | undefined> {
  const traceId = traceIdOf(message.headers);
  return {
    topic,
    partition,
    offset: message.offset,
    correlation_id: record?.correlationid ?? headerText(message.headers, 'correlation_id'),
    record_type: record?.type ?? headerText(message.headers, 'ce_type'),
    // Absent rather than undefined: a logger that adds the active span's trace id must keep it.
    ...(traceId !== undefined ? { trace_id: traceId } : {}),
  };
}

/**
 * What a consumer shows of itself: `cms_records_processed_total` and `cms_consumer_lag` in the
 * service's registry (when it has one), how long a partition has waited without moving (stalledMs,
 * behind `/ready` and `cms_consumer_stalled_seconds`), whether the group assigned it partitions, and
 * the counts and last failure of `stats`.
 */
export class ConsumerTelemetry {
  private readonly metrics: KafkaMetrics | undefined;
  /** Partitions this consumer reports a lag for, so that a revoked one stops being reported. */
  private readonly lagReported = new Set<string>();
  /** Per partition read, where its records stand (see stalledMs). */
  private readonly progress = new Map<string, Progress>();
  private applied = 0;
  private deadLettered = 0;
  private lastError: string | undefined;
  private isAssigned = false;

  constructor(
    private readonly consumer: string,
    registry: Registry<RegistryContentType> | undefined,
  ) {
    this.metrics = registry ? kafkaMetrics(registry) : undefined;
    this.metrics?.addConsumerStallReader(consumer, () => this.stalledMs());
  }

  get stats(): ConsumerStats {
    return {
      applied: this.applied,
      deadLettered: this.deadLettered,
      assigned: this.isAssigned,
      lastError: this.lastError,
    };
  }

  /** The group handed this consumer partitions and it has not crashed or stopped since. */
  get assigned(): boolean {
    return this.isAssigned;
  }

  /**
   * How long, in ms, the partition waited for the longest has had records waiting (lag above 0) with
   * its position unchanged; 0 when every partition moved or has nothing to read. A partition stuck on
   * a record (retrying a transient failure) or a consumer that stopped fetching shows here, while a
   * consumer that is behind but moving does not.
   */
  stalledMs(now = Date.now()): number {
    let longest = 0;
    for (const { position, highWatermark, since } of this.progress.values()) {
      if (highWatermark > position) longest = Math.max(longest, now - since);
    }
    return longest;
  }

  /** The group (re)assigned partitions: those outside `assignment` are no longer reported. */
  joined(assignment: Record<string, number[]>): void {
    this.isAssigned = true;
    this.forgetLag(assignment);
  }

  crashed(): void {
    this.isAssigned = false;
  }

  /** The consumer left its group: it reports no partition any more. */
  stopped(): void {
    this.isAssigned = false;
    this.forgetLag({});
    this.progress.clear();
  }

  /** The last failure of a transaction, as `stats.lastError` shows it. */
  failed(detail: string): void {
    this.lastError = detail;
  }

  /**
   * Sets `cms_consumer_lag` for a partition: records from `position` (the next to apply) to its end;
   * and notes when its position last moved.
   */
  reportLag(topic: string, partition: number, highWatermark: string, position: string): void {
    const key = partitionKey(topic, partition);
    const at = BigInt(position);
    const before = this.progress.get(key);
    // Records waiting at a position reached before start waiting from now, not from when it was reached.
    const waitedBefore = before !== undefined && before.position === at && before.highWatermark > at;
    this.progress.set(key, {
      position: at,
      highWatermark: BigInt(highWatermark),
      since: waitedBefore ? before.since : Date.now(),
    });
    if (!this.metrics) return;
    const lag = BigInt(highWatermark) - BigInt(position);
    this.metrics.consumerLag.set(
      { consumer: this.consumer, topic, partition: String(partition) },
      Number(lag > 0n ? lag : 0n),
    );
    this.lagReported.add(key);
  }

  /** After a commit: what it did to the counters. */
  committed(topic: string, read: number, applied: number, deadLettered: number): void {
    this.applied += applied;
    this.deadLettered += deadLettered;
    if (!this.metrics) return;
    const consumer = this.consumer;
    const counter = this.metrics.recordsProcessed;
    counter.inc({ consumer, topic, result: 'applied' }, applied);
    counter.inc({ consumer, topic, result: 'dead_lettered' }, deadLettered);
    counter.inc({ consumer, topic, result: 'skipped' }, read - applied - deadLettered);
  }

  /** Records read past without a transaction (none of this consumer's types). */
  readPast(topic: string, count: number): void {
    this.metrics?.recordsProcessed.inc({ consumer: this.consumer, topic, result: 'skipped' }, count);
  }

  /** Stops reporting a lag for the partitions outside `assignment`, which another member now reads. */
  private forgetLag(assignment: Record<string, number[]>): void {
    for (const key of this.progress.keys()) {
      const at = key.lastIndexOf('/');
      if (!assignment[key.slice(0, at)]?.includes(Number(key.slice(at + 1)))) this.progress.delete(key);
    }
    if (!this.metrics) return;
    for (const key of this.lagReported) {
      const at = key.lastIndexOf('/');
      const topic = key.slice(0, at);
      const partition = Number(key.slice(at + 1));
      if (assignment[topic]?.includes(partition)) continue;
      this.metrics.consumerLag.remove({ consumer: this.consumer, topic, partition: String(partition) });
      this.lagReported.delete(key);
    }
  }
}
