import {
  OUTCOME_TYPES,
  requestEnvelope,
  type OutcomeError,
  type RequestPayloads,
  type RequestType,
} from '@cms/contracts';
import { currentCorrelationId, JsonApiException } from '@cms/http';
import { BatchingProducer, MAX_RECORD_BYTES, OutcomeWaiter, recordBytes } from '@cms/kafka';
import { LOGGER } from '@cms/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';

import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { SOURCE } from '../decisions/request-decider';

export interface WriteRequest<T extends RequestType> {
  /** e.g. `contact.upsert.requested` */
  type: T;
  workspaceId: number;
  /** The payload of `type`: another request's payload does not compile. */
  data: RequestPayloads[T];
  /** The resource the request is about, when it has one. */
  subject?: string;
}

export interface WriteAnswer {
  status: number;
  /** The `data` member of the body; absent for 204. */
  resource?: Record<string, unknown>;
}

interface RequestMessage {
  key: string;
  value: string;
  headers: Record<string, string>;
}

/** Seconds a client is asked to wait when the owning service did not answer in time. */
const RETRY_AFTER_SECONDS = 5;

/**
 * DESIGN §3: the request becomes a record on the log, and the answer is the owning service's outcome.
 * The wait is registered before the record is produced so that a fast outcome cannot be missed.
 *
 * The record's correlation id is the HTTP request's (answered in X-Request-Id, on its access line),
 * which the gateway mints per request: it is unique, as waiting by it requires, and one request makes
 * at most one record. The producer puts the request's trace context in the record's headers.
 */
@Injectable()
export class WritePathService {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(BatchingProducer) private readonly producer: BatchingProducer,
    @Inject(OutcomeWaiter) private readonly waiter: OutcomeWaiter,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async submit<T extends RequestType>(request: WriteRequest<T>): Promise<WriteAnswer> {
    const { correlationid, message } = this.recordOf(request);
    const outcome = this.waiter.wait(correlationid, this.config.outcomeTimeoutMs);
    const produced = this.produce(request.type, correlationid, message);
    // While the broker is away the producer keeps retrying (for as long as it takes), so the answer
    // does not wait for the produce: it is the outcome or, at OUTCOME_TIMEOUT_MS, a 503. A record
    // produced after that is decided like any other, and a retry with the same Idempotency-Key gets it.
    const first = await Promise.race([produced, outcome.then((answer) => ({ answer }))]);
    if ('failed' in first && first.failed) {
      this.waiter.cancel(correlationid);
      throw JsonApiException.serviceUnavailable(
        RETRY_AFTER_SECONDS,
        'The request could not be recorded; retry later.',
      );
    }
    const answer = 'answer' in first ? first.answer : await outcome;
    if (!answer) {
      this.logger.warn({ correlation_id: correlationid, type: request.type }, 'no outcome in time');
      throw JsonApiException.serviceUnavailable(
        RETRY_AFTER_SECONDS,
        'The request was not answered in time; retry with the same Idempotency-Key to get its result.',
      );
    }
    const data = answer.data as {
      status: number;
      resource?: Record<string, unknown>;
      errors?: OutcomeError[];
    };
    if (answer.type === OUTCOME_TYPES.rejected) {
      throw new JsonApiException(
        data.status,
        (data.errors ?? []).map((error) => ({ ...error })),
      );
    }
    return { status: data.status, ...(data.resource !== undefined ? { resource: data.resource } : {}) };
  }

  /**
   * Puts on the log a request that nobody answers (a provider's callback): resolved once the broker
   * holds it (the producer waits for every in-sync replica), or 503 when it could not be written within
   * OUTCOME_TIMEOUT_MS, so that the sender tries again.
   */
  async record<T extends RequestType>(request: WriteRequest<T>): Promise<void> {
    const { correlationid, message } = this.recordOf(request);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.config.outcomeTimeoutMs);
    });
    let written: { failed: boolean } | 'late';
    try {
      written = await Promise.race([this.produce(request.type, correlationid, message), late]);
    } finally {
      clearTimeout(timer);
    }
    if (written === 'late' || written.failed) {
      throw JsonApiException.serviceUnavailable(
        RETRY_AFTER_SECONDS,
        'The request could not be recorded; retry later.',
      );
    }
  }

  /** Produces the record; a failure is logged and reported, never thrown. */
  private produce(
    type: RequestType,
    correlationid: string,
    message: RequestMessage,
  ): Promise<{ failed: boolean }> {
    return this.producer.send(this.config.topics.requests, [message]).then(
      () => ({ failed: false }),
      (error: unknown) => {
        this.logger.error(
          { err: error, correlation_id: correlationid, type },
          'could not produce the request record',
        );
        return { failed: true };
      },
    );
  }

  /** The request's record, refused (413) when the topic could not carry it. */
  private recordOf<T extends RequestType>(
    request: WriteRequest<T>,
  ): { correlationid: string; message: RequestMessage } {
    const correlationid = currentCorrelationId() ?? randomUUID();
    const envelope = requestEnvelope(request.type, request.data, {
      id: correlationid,
      source: SOURCE,
      workspaceid: String(request.workspaceId),
      correlationid,
      ...(request.subject !== undefined ? { subject: request.subject } : {}),
    });
    const message = {
      key: envelope.workspaceid,
      value: JSON.stringify(envelope),
      headers: { ce_type: envelope.type, correlation_id: correlationid },
    };
    // The body was within the edge's limit, but written back as JSON it can be several times larger
    // (`1e20` becomes 21 digits): a record the topic could not carry is refused here, never produced.
    if (recordBytes(message) > MAX_RECORD_BYTES) {
      throw JsonApiException.payloadTooLarge(
        `The request is too large to record: written out as JSON it exceeds ${MAX_RECORD_BYTES} bytes.`,
      );
    }
    return { correlationid, message };
  }
}
