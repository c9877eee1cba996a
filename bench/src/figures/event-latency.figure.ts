import { EVENT_FACT_TYPES } from '@cms/contracts';
import type { Kafka } from 'kafkajs';

import type { RequestSource } from '../load/closed-loop.load';
import { runOpenLoop } from '../load/open-loop.load';
import type { CpuMeter, CpuUsage } from '../support/cpu-meter';
import { latencySummary as summary } from '../support/percentiles';

export interface EventLatency {
  rate: number;
  seconds: number;
  requests: number;
  accepted: number;
  failed: number;
  /** Accepted events whose fact never showed up within the grace period. */
  missingFacts: number;
  /** Request due → `event.recorded` fact read from the contacts topic. */
  endToEndMs: { p50: number; p90: number; p99: number; max: number };
  /** Request due → HTTP answer (the gateway answers once contacts' outcome is back). */
  answerMs: { p50: number; p90: number; p99: number; max: number };
  /**
   * The trip in legs, from the fact itself: its `time` is when the gateway made the request record,
   * its Kafka timestamp when contacts' outbox relay handed it to the producer (wall clock, ms).
   */
  legsMs: {
    /** Request due → the gateway made the record (HTTP, key, rate limit, validation, ids). */
    toGateway: { p50: number; p90: number; p99: number; max: number };
    /** Gateway → Kafka → contacts applied it in a transaction → its outbox relay sent the fact. */
    gatewayToRelay: { p50: number; p90: number; p99: number; max: number };
    /** Relay sent it → the broker acknowledged → a consumer read it. */
    relayToReader: { p50: number; p90: number; p99: number; max: number };
  };
  cpu: CpuUsage;
}

/**
 * One event's trip: the request is due (open loop, at `rate`), the gateway produces it, contacts
 * records the event and its contact and publishes `event.recorded`, and a consumer in this process
 * reads the fact. The clock is this process's for both ends.
 */
export async function measureEventLatency(
  kafka: Kafka,
  factsTopic: string,
  groupId: string,
  url: string,
  source: RequestSource,
  rate: number,
  seconds: number,
  meter: CpuMeter,
  log: (line: string) => void,
): Promise<EventLatency> {
  const seen = new Map<number, number>();
  /** Per event: [when the gateway made the request record, when the relay sent the fact] (epoch ms). */
  const stamps = new Map<number, [number, number]>();
  // performance.now() + this = Date.now(): due times and Kafka's wall-clock stamps on one scale.
  const epochOffset = Date.now() - performance.now();
  const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 50, sessionTimeout: 30000 });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: factsTopic, fromBeginning: false });
    const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
    await consumer.run({
      partitionsConsumedConcurrently: 4,
      eachMessage: async ({ message }) => {
        if (message.headers?.ce_type?.toString() !== EVENT_FACT_TYPES.recorded) return;
        const at = performance.now();
        const fact = JSON.parse(message.value?.toString() ?? '{}') as {
          time?: string;
          data?: { event_id?: number };
        };
        const id = fact.data?.event_id;
        if (id === undefined) return;
        seen.set(id, at);
        stamps.set(id, [Date.parse(fact.time ?? ''), Number(message.timestamp)]);
      },
    });
    await joined;
    // A first event through the whole path: the consumer has its positions and every part is warm.
    const probe = await runOpenLoop(url, source, 20, 1, 4);
    const probeIds = probe.sent.map((sent) => eventId(sent.body)).filter((id) => id !== undefined);
    const deadline = Date.now() + 30000;
    while (!probeIds.every((id) => seen.has(id)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (!probeIds.every((id) => seen.has(id))) throw new Error('facts of the probe events never arrived');

    log(`open loop at ${rate} req/s for ${seconds} s`);
    const start = meter.snapshot();
    const run = await runOpenLoop(url, source, rate, seconds);
    const cpu = meter.between(start, meter.snapshot());
    const accepted = run.sent
      .map((sent) => ({ sent, id: sent.status === 202 ? eventId(sent.body) : undefined }))
      .filter((entry): entry is { sent: (typeof run.sent)[number]; id: number } => entry.id !== undefined);
    const graceUntil = Date.now() + 15000;
    while (accepted.some(({ id }) => !seen.has(id)) && Date.now() < graceUntil) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const arrived = accepted.filter(({ id }) => seen.has(id));
    const endToEnd = arrived.map(({ sent, id }) => seen.get(id)! - sent.dueAt);
    const leg = (pick: (due: number, stamp: [number, number], read: number) => number): number[] =>
      arrived.map(({ sent, id }) =>
        pick(sent.dueAt + epochOffset, stamps.get(id)!, seen.get(id)! + epochOffset),
      );
    return {
      rate,
      seconds,
      requests: run.sent.length + run.errors,
      accepted: accepted.length,
      failed: run.sent.length + run.errors - accepted.length,
      missingFacts: accepted.length - endToEnd.length,
      endToEndMs: summary(endToEnd),
      answerMs: summary(accepted.map(({ sent }) => sent.answeredAt - sent.dueAt)),
      legsMs: {
        toGateway: summary(leg((due, [made]) => made - due)),
        gatewayToRelay: summary(leg((_due, [made, relayed]) => relayed - made)),
        relayToReader: summary(leg((_due, [, relayed], read) => read - relayed)),
      },
      cpu,
    };
  } finally {
    await consumer.disconnect();
  }
}

function eventId(body: string): number | undefined {
  try {
    const id = (JSON.parse(body) as { data?: { id?: unknown } }).data?.id;
    return typeof id === 'number' ? id : undefined;
  } catch {
    return undefined;
  }
}
