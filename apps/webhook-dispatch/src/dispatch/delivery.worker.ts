import { decryptSecret } from '@cms/contracts';
import { Client } from 'pg';
import type { Logger } from 'pino';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

import type { DeliveryWorkerConfig } from '../config';
import { deliveriesChannel } from '../deliveries/webhook-delivery.repository';
import type { ClaimedDelivery, DeliveryQueueRepository } from './delivery-queue.repository';
import type { EndpointGates } from './endpoint-gates';
import { signatureHeader } from './webhook-signature';
import type { AttemptResult, WebhookSender } from './webhook.sender';

export interface DeliveryWorkerOptions {
  queue: DeliveryQueueRepository;
  sender: WebhookSender;
  gates: EndpointGates;
  config: DeliveryWorkerConfig;
  timeoutMs: number;
  secretsKey: string;
  databaseUrl: string;
  schema: string;
  logger: Logger;
  metrics?: Registry;
  /** Called after a commit that wrote to the outbox (a switch-off request). */
  onOutboxWritten?(): void;
}

/** How long a secret that cannot be opened holds a delivery back: an operator has to fix SECRETS_KEY. */
const UNREADABLE_SECRET_RETRY_MS = 60_000;
const SWEEP_EVERY_MS = 60_000;
/** Never less, for work due now that a claim still does not take (a clock skew between here and Postgres). */
const SHORTEST_SLEEP_MS = 10;

/** An attempt whose worker died before it was recorded counts as `interrupted`. */
function attemptLabel(result: AttemptResult | undefined): string {
  return result === undefined ? 'interrupted' : result.kind;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Sends the deliveries, outside the consumers (DESIGN §4): claims due rows, runs up to `maxInFlight`
 * of them at once, at most `perEndpoint` per endpoint, each through its endpoint's breaker, so a slow
 * or dead endpoint only ever holds its own few slots. Wakes on NOTIFY from the transactions that create
 * or redeliver deliveries, and polls as a safety net (retries become due on the clock).
 */
export class DeliveryWorker {
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private kicked = false;
  private listener: Client | undefined;
  private lastSweep = Date.now();
  private readonly attempts: Counter<'result'> | undefined;
  private readonly attemptSeconds: Histogram<'result'> | undefined;
  private readonly finished: Counter<'status'> | undefined;

  constructor(private readonly options: DeliveryWorkerOptions) {
    if (options.metrics) {
      const registers = [options.metrics];
      this.attempts = new Counter({
        name: 'cms_webhook_attempts_total',
        help: 'Webhook delivery attempts by result: succeeded, refused, timeout, blocked, unreachable, interrupted.',
        labelNames: ['result'],
        registers,
      });
      this.attemptSeconds = new Histogram({
        name: 'cms_webhook_attempt_duration_seconds',
        help: 'Time from sending a webhook to its answer (or to giving up on one), in seconds.',
        labelNames: ['result'],
        buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
        registers,
      });
      this.finished = new Counter({
        name: 'cms_webhook_deliveries_finished_total',
        help: 'Webhook deliveries that succeeded or failed for good.',
        labelNames: ['status'],
        registers,
      });
      // A count, not a series per endpoint: endpoints are customer data and unbounded.
      new Gauge({
        name: 'cms_webhook_endpoint_breakers_open',
        help: 'Endpoints whose circuit breaker is open: their deliveries are held back.',
        registers,
        collect() {
          this.set(options.gates.openEndpoints().length);
        },
      });
    }
  }

  get isRunning(): boolean {
    return this.running;
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.listen();
    this.loop = this.run();
  }

  /** Something became due: look now rather than at the next poll. */
  kick(): void {
    this.kicked = true;
    this.wake?.();
  }

  /** Stops claiming and lets the attempts in flight finish (each within the timeout) and be recorded. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
  }

  private async run(): Promise<void> {
    const { config, logger } = this.options;
    let failures = 0;
    while (this.running) {
      let claimedFull = false;
      const free = config.maxInFlight - this.inFlight.size;
      if (free > 0) {
        try {
          const claimed = await this.options.queue.claim({
            limit: free,
            perEndpoint: config.perEndpoint,
            leaseMs: this.options.timeoutMs + config.leaseMarginMs,
            skipEndpoints: this.options.gates.openEndpoints(),
          });
          failures = 0;
          for (const delivery of claimed) this.track(this.deliver(delivery));
          claimedFull = claimed.length === free;
        } catch (error) {
          failures += 1;
          logger.error({ err: error }, 'could not claim deliveries; retrying');
          await sleep(Math.min(5000, 100 * 2 ** Math.min(failures, 6)));
          continue;
        }
      }
      if (Date.now() - this.lastSweep > SWEEP_EVERY_MS) {
        this.options.gates.sweep();
        this.lastSweep = Date.now();
      }
      // A full claim may have left more due work behind: go again as soon as a slot frees.
      if (claimedFull && this.inFlight.size < config.maxInFlight) continue;
      await this.idle(await this.sleepMs());
    }
  }

  /**
   * How long to sleep with nothing to claim: until the earliest waiting delivery or breaker trial is
   * due, the safety poll (`pollMs`) at the most; new and redelivered deliveries and freed slots wake the
   * worker sooner (kick).
   */
  private async sleepMs(): Promise<number> {
    const { config, queue, gates, logger } = this.options;
    if (this.kicked || !this.running) return 0;
    const due: number[] = [];
    const trial = gates.nextTrialAt();
    if (trial !== undefined) due.push(trial);
    if (this.inFlight.size < config.maxInFlight) {
      try {
        const next = await queue.nextDueAt({
          perEndpoint: config.perEndpoint,
          skipEndpoints: gates.openEndpoints(),
        });
        if (next !== undefined) due.push(next);
      } catch (error) {
        logger.warn({ err: error }, 'could not read when the next delivery is due');
      }
    }
    const until = Math.min(...due) - Date.now();
    return Math.max(SHORTEST_SLEEP_MS, Math.min(config.pollMs, until));
  }

  private async idle(ms: number): Promise<void> {
    if (this.kicked) {
      this.kicked = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
    this.wake = undefined;
    this.kicked = false;
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => {
      this.inFlight.delete(work);
      // A slot is free: there may be due work waiting for one.
      this.kick();
    });
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const { queue, gates, logger } = this.options;
    const log = logger.child({ delivery_id: delivery.id, endpoint_id: delivery.endpointId });
    try {
      if (delivery.attemptOpen) {
        // Its worker died during attempt N: N counts, as a failure, and the schedule goes on from it.
        log.warn({ attempt: delivery.attemptCount }, 'attempt was interrupted; counting it as failed');
        await this.settle(delivery, delivery.attemptCount, undefined, log);
        return;
      }
      let secrets: { current: string; previous?: string };
      try {
        secrets = this.secrets(delivery);
      } catch {
        log.error('the signing secret cannot be opened with SECRETS_KEY; holding the delivery back');
        await queue.postpone(delivery, UNREADABLE_SECRET_RETRY_MS);
        return;
      }
      let attempt: number | undefined;
      const gated = await gates.run(
        delivery.endpointId,
        async () => {
          attempt = await queue.startAttempt(delivery);
          if (attempt === undefined) return undefined;
          const timestamp = Math.floor(Date.now() / 1000);
          return this.options.sender.send({
            url: delivery.url,
            deliveryId: delivery.id,
            eventType: delivery.eventType,
            body: delivery.body,
            signature: signatureHeader(delivery.body, timestamp, secrets.current, secrets.previous),
          });
        },
        (result) => result !== undefined && result.unreachable,
      );
      if (gated.kind === 'held') {
        log.debug(
          { retry_in_ms: Math.round(gated.retryInMs) },
          'endpoint breaker is open; delivery held back',
        );
        await queue.postpone(delivery, gated.retryInMs);
        return;
      }
      if (gated.value === undefined || attempt === undefined) return;
      await this.settle(delivery, attempt, gated.value, log);
    } catch (error) {
      // The database failed us mid-way: the lease runs out and the delivery is picked up again.
      log.error({ err: error }, 'delivery could not be completed; it will be taken up again');
    }
  }

  private async settle(
    delivery: ClaimedDelivery,
    attempt: number,
    result: AttemptResult | undefined,
    log: Logger,
  ): Promise<void> {
    const finished = await this.options.queue.finishAttempt(delivery, attempt, result);
    this.attempts?.inc({ result: attemptLabel(result) });
    if (result !== undefined) this.attemptSeconds?.observe({ result: result.kind }, result.durationMs / 1000);
    log.info(
      {
        attempt,
        event_type: delivery.eventType,
        response_status: result?.responseStatus ?? null,
        duration_ms: result?.durationMs ?? null,
        error: result ? result.error : 'interrupted',
        status: finished?.status ?? 'superseded',
      },
      'webhook attempt',
    );
    if (finished?.status === 'succeeded' || finished?.status === 'failed')
      this.finished?.inc({ status: finished.status });
    if (finished?.switchedOff) {
      log.warn(
        { consecutive_failures: finished.switchedOff.consecutiveFailures },
        'deliveries failed in a row: asked for the endpoint to be switched off',
      );
      this.options.onOutboxWritten?.();
    }
  }

  private secrets(delivery: ClaimedDelivery): { current: string; previous?: string } {
    const current = decryptSecret(delivery.secretSealed, this.options.secretsKey);
    if (delivery.previousSecretSealed === null) return { current };
    return { current, previous: decryptSecret(delivery.previousSecretSealed, this.options.secretsKey) };
  }

  /** LISTEN for new and redelivered deliveries; on trouble, reconnect while the poll carries on. */
  private async listen(): Promise<void> {
    let wait = 500;
    while (this.running) {
      const client = new Client({ connectionString: this.options.databaseUrl });
      const closed = new Promise<void>((resolve) => {
        // Kept for the client's whole life: a second 'error' without a listener would crash the process.
        client.on('error', (error: Error) => {
          this.options.logger.warn({ err: error }, 'delivery notifications lost; polling meanwhile');
          resolve();
        });
        client.once('end', () => resolve());
      });
      try {
        await client.connect();
        client.on('notification', () => this.kick());
        await client.query(`LISTEN ${deliveriesChannel(this.options.schema)}`);
        this.listener = client;
        wait = 500;
        if (this.running) await closed;
      } catch (error) {
        this.options.logger.warn({ err: error }, 'delivery notifications unavailable; polling meanwhile');
      }
      if (this.listener === client) this.listener = undefined;
      await client.end().catch(() => undefined);
      if (!this.running) return;
      // Unref'd: a reconnect pause must not hold a stopping process open.
      await new Promise((resolve) => setTimeout(resolve, wait).unref());
      wait = Math.min(wait * 2, 10_000);
    }
  }
}
