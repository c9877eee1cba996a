import { createEnvelope, OUTCOME_TYPES, type OutcomeError } from '@cms/contracts';
import { JsonApiException } from '@cms/http';
import { BatchingProducer, OutcomeWaiter } from '@cms/kafka';
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';

import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { LOGGER } from '../infrastructure/infrastructure.module';

export interface WriteRequest {
  /** e.g. `contact.upsert.requested` */
  type: string;
  workspaceId: number;
  data: object;
  /** The resource the request is about, when it has one. */
  subject?: string;
}

export interface WriteAnswer {
  status: number;
  /** The `data` member of the body; absent for 204. */
  resource?: Record<string, unknown>;
}

/** Seconds a client is asked to wait when the owning service did not answer in time. */
const RETRY_AFTER_SECONDS = 5;

/**
 * DESIGN §3: the request becomes a record on the log, and the answer is the owning service's outcome.
 * The wait is registered before the record is produced so that a fast outcome cannot be missed.
 */
@Injectable()
export class WritePathService {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(BatchingProducer) private readonly producer: BatchingProducer,
    @Inject(OutcomeWaiter) private readonly waiter: OutcomeWaiter,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async submit(request: WriteRequest): Promise<WriteAnswer> {
    const correlationid = randomUUID();
    const envelope = createEnvelope({
      id: correlationid,
      type: request.type,
      source: 'gateway',
      workspaceid: String(request.workspaceId),
      correlationid,
      data: request.data,
      ...(request.subject !== undefined ? { subject: request.subject } : {}),
    });
    const outcome = this.waiter.wait(correlationid, this.config.outcomeTimeoutMs);
    try {
      await this.producer.send(this.config.topics.requests, [
        {
          key: envelope.workspaceid,
          value: JSON.stringify(envelope),
          headers: { ce_type: envelope.type, correlation_id: correlationid },
        },
      ]);
    } catch (error) {
      this.waiter.cancel(correlationid);
      this.logger.error(
        { err: error, correlation_id: correlationid, type: request.type },
        'could not produce the request record',
      );
      throw JsonApiException.serviceUnavailable(
        RETRY_AFTER_SECONDS,
        'The request could not be recorded; retry later.',
      );
    }
    const answer = await outcome;
    if (!answer) {
      this.logger.warn({ correlation_id: correlationid, type: request.type }, 'no outcome in time');
      throw JsonApiException.serviceUnavailable(
        RETRY_AFTER_SECONDS,
        'The request was recorded but not answered in time; retry with the same Idempotency-Key to get its result.',
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
}
