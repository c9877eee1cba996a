import CircuitBreaker from 'opossum';
import type { Logger } from 'pino';

/** Thrown inside the breaker so it counts the failure; carries the value back out. */
class CountedFailure<T> extends Error {
  constructor(readonly value: T) {
    super('endpoint unreachable');
  }
}

export type Gated<T> = { kind: 'ran'; value: T } | { kind: 'held'; retryInMs: number };

interface Gate {
  breaker: CircuitBreaker<[() => Promise<unknown>], unknown>;
  openedAt: number;
  lastUsed: number;
}

export interface EndpointGatesOptions {
  /** How long an open breaker holds the endpoint's deliveries back before one trial goes through. */
  resetMs: number;
  logger: Logger;
  /** Calls in the rolling window before the breaker may open. */
  volumeThreshold?: number;
}

/** A breaker unused this long is dropped; a new one starts closed. */
const IDLE_MS = 10 * 60 * 1000;

/**
 * One opossum circuit breaker per endpoint. It counts only failures to reach the endpoint (timeouts,
 * connection, DNS and TLS errors): an endpoint that hangs or is down stops taking attempts, and with
 * them worker capacity, until a trial succeeds. While it is open the endpoint's deliveries are held
 * back without spending an attempt.
 */
export class EndpointGates {
  private readonly gates = new Map<string, Gate>();

  constructor(private readonly options: EndpointGatesOptions) {}

  /**
   * Runs `action` unless the endpoint's breaker holds it back. `unreachable` tells which results
   * count against the endpoint. Errors of the action itself (the database) propagate and do not count.
   */
  async run<T>(
    endpointId: string,
    action: () => Promise<T>,
    unreachable: (value: T) => boolean,
  ): Promise<Gated<T>> {
    const gate = this.gate(endpointId);
    gate.lastUsed = Date.now();
    let started = false;
    try {
      const value = (await gate.breaker.fire(async () => {
        started = true;
        const value = await action();
        if (unreachable(value)) throw new CountedFailure(value);
        return value;
      })) as T;
      return { kind: 'ran', value };
    } catch (error) {
      if (error instanceof CountedFailure) return { kind: 'ran', value: error.value as T };
      if (!started) return { kind: 'held', retryInMs: this.retryIn(gate) };
      throw error;
    }
  }

  /** Endpoints whose breaker is open now: the worker does not claim their deliveries. */
  openEndpoints(): string[] {
    return [...this.gates].filter(([, gate]) => gate.breaker.opened).map(([id]) => id);
  }

  /** When the first open breaker lets a trial through (ms since the epoch); undefined when none is open. */
  nextTrialAt(): number | undefined {
    let first: number | undefined;
    for (const gate of this.gates.values()) {
      if (!gate.breaker.opened) continue;
      const at = gate.openedAt + this.options.resetMs;
      if (first === undefined || at < first) first = at;
    }
    return first;
  }

  state(endpointId: string): 'closed' | 'open' | 'half-open' {
    const breaker = this.gates.get(endpointId)?.breaker;
    if (!breaker) return 'closed';
    return breaker.opened ? 'open' : breaker.halfOpen ? 'half-open' : 'closed';
  }

  /** Drops the breakers of endpoints not seen for a while, closed ones only. */
  sweep(now = Date.now()): void {
    for (const [id, gate] of this.gates) {
      if (gate.breaker.closed && now - gate.lastUsed > IDLE_MS) {
        gate.breaker.shutdown();
        this.gates.delete(id);
      }
    }
  }

  shutdown(): void {
    for (const gate of this.gates.values()) gate.breaker.shutdown();
    this.gates.clear();
  }

  private retryIn(gate: Gate): number {
    const jitter = Math.random() * 250;
    if (gate.breaker.opened) {
      return Math.max(100, gate.openedAt + this.options.resetMs - Date.now()) + jitter;
    }
    // Half-open with its one trial in flight: look again shortly.
    return Math.min(1000, this.options.resetMs) + jitter;
  }

  private gate(endpointId: string): Gate {
    const existing = this.gates.get(endpointId);
    if (existing) return existing;
    const breaker = new CircuitBreaker(async (action: () => Promise<unknown>) => action(), {
      name: endpointId,
      timeout: false,
      resetTimeout: this.options.resetMs,
      errorThresholdPercentage: 50,
      volumeThreshold: this.options.volumeThreshold ?? 10,
      rollingCountTimeout: 60_000,
      rollingCountBuckets: 10,
      errorFilter: (error: unknown) => !(error instanceof CountedFailure),
    });
    const gate: Gate = { breaker, openedAt: 0, lastUsed: Date.now() };
    breaker.on('open', () => {
      gate.openedAt = Date.now();
      this.options.logger.warn({ endpoint_id: endpointId }, 'endpoint circuit breaker opened');
    });
    breaker.on('close', () =>
      this.options.logger.info({ endpoint_id: endpointId }, 'endpoint circuit breaker closed'),
    );
    this.gates.set(endpointId, gate);
    return gate;
  }
}
