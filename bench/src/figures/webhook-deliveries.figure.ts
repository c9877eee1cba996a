import type { BenchSystem, Tenant } from '../support/bench-system';
import type { CpuMeter, CpuUsage, Snapshot } from '../support/cpu-meter';
import type { HttpsReceiver } from '../support/https.receiver';
import { feedConsentFacts } from '../support/log-feeder';

export interface WebhookDeliveries {
  endpoints: number;
  expected: number;
  received: number;
  /** Retries of a delivery the receiver had already answered. */
  repeats: number;
  /** From the first delivery to the last, as the receiver saw them. */
  seconds: number;
  perSecond: number;
  /** Between the 10th and the 90th percentile of arrivals: the rate once the backlog flows. */
  steadyPerSecond: number;
  /** From webhook-dispatch's start to the first delivery (boot, joining, first claim). */
  firstDeliveryAfterMs: number;
  cpu: CpuUsage | undefined;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Outbound webhooks from a backlog: one endpoint per tenant subscribed to consent.granted (made through
 * the gateway), webhook-dispatch stopped while `count` consent.granted facts are published as contacts
 * publishes them, then started again; it reads the facts, makes the deliveries and sends them to the
 * receiver, which answers at once. What is timed is the receiver's first to last delivery.
 */
export async function measureWebhookDeliveries(
  system: BenchSystem,
  tenants: Tenant[],
  receiver: HttpsReceiver,
  count: number,
  meter: CpuMeter,
  log: (line: string) => void,
  hooks: { started(): void; finished(): Promise<void> },
): Promise<WebhookDeliveries> {
  for (const tenant of tenants) {
    const created = await system.call<{ data: { id: string } }>(
      'POST',
      '/api/v1/webhook-endpoints',
      { authorization: `Bearer ${tenant.key}` },
      { url: receiver.url(`/hooks/${tenant.workspaceId}`), event_types: ['consent.granted'] },
    );
    if (created.status !== 201) {
      throw new Error(`webhook endpoint not created: ${created.status} ${JSON.stringify(created.body)}`);
    }
  }
  await system.stopService('webhook-dispatch');
  log(`publishing ${count} consent.granted facts while webhook-dispatch is stopped`);
  await feedConsentFacts(system.kafka, system.topics, tenants, count);
  const before = receiver.count;
  const startedAt = performance.now();
  log('starting webhook-dispatch on the backlog');
  await system.start('webhook-dispatch');
  hooks.started();
  let start: Snapshot | undefined;
  let lastProgress = performance.now();
  let lastCount = before;
  while (receiver.count - before < count) {
    if (start === undefined && receiver.count > before) start = meter.snapshot();
    if (receiver.count !== lastCount) {
      lastCount = receiver.count;
      lastProgress = performance.now();
    }
    if (performance.now() - lastProgress > 30000) {
      log(`deliveries stalled at ${receiver.count - before} of ${count}`);
      break;
    }
    await sleep(20);
  }
  const cpu = start ? meter.between(start, meter.snapshot()) : undefined;
  await hooks.finished();
  const arrivals = receiver.arrivals.slice(before);
  const received = arrivals.length;
  const first = arrivals[0] ?? startedAt;
  const last = arrivals[received - 1] ?? startedAt;
  const seconds = (last - first) / 1000;
  const low = arrivals[Math.floor(received * 0.1)] ?? first;
  const high = arrivals[Math.floor(received * 0.9)] ?? last;
  return {
    endpoints: tenants.length,
    expected: count,
    received,
    repeats: receiver.repeats,
    seconds: Math.round(seconds * 100) / 100,
    perSecond: seconds > 0 ? Math.round((received - 1) / seconds) : 0,
    steadyPerSecond:
      high > low
        ? Math.round((Math.floor(received * 0.9) - Math.floor(received * 0.1)) / ((high - low) / 1000))
        : 0,
    firstDeliveryAfterMs: Math.round(first - startedAt),
    cpu,
  };
}
