import { SEGMENTS_REQUEST_TYPES, type DecodedRecord } from '@cms/contracts';
import { decideRequest, handlerFor, type RequestHandlers } from '@cms/kafka';
import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';

import { WriteAudiencesHandler } from './audiences/write-audiences/write-audiences.handler';
import { SEGMENTS_CONFIG, SOURCE, type SegmentsConfig } from './config';
import { ProcessImportHandler } from './imports/process-import/process-import.handler';
import { REQUESTS_TRANSPORT } from './transports';

/** The requests a client sends and waits for: each is answered on the outcome topic. */
const ANSWERED_TYPES = [
  SEGMENTS_REQUEST_TYPES.audienceCreate,
  SEGMENTS_REQUEST_TYPES.audienceUpdate,
  SEGMENTS_REQUEST_TYPES.audienceDelete,
  SEGMENTS_REQUEST_TYPES.importProcess,
] as const;

type AnsweredType = (typeof ANSWERED_TYPES)[number];

/** Hands each request record to its use case; the shared frame answers it and publishes its facts. */
@Controller()
export class SegmentsRequestsConsumer {
  /** One use case per answered type: a type without one, or one for another payload, does not compile. */
  private readonly handlers: RequestHandlers<AnsweredType>;

  constructor(
    @Inject(SEGMENTS_CONFIG) private readonly config: SegmentsConfig,
    @Inject(WriteAudiencesHandler) audiences: WriteAudiencesHandler,
    @Inject(ProcessImportHandler) processImport: ProcessImportHandler,
  ) {
    this.handlers = {
      [SEGMENTS_REQUEST_TYPES.audienceCreate]: (decision) => audiences.create(decision),
      [SEGMENTS_REQUEST_TYPES.audienceUpdate]: (decision) => audiences.update(decision),
      [SEGMENTS_REQUEST_TYPES.audienceDelete]: (decision) => audiences.delete(decision),
      [SEGMENTS_REQUEST_TYPES.importProcess]: (decision) => processImport.handle(decision),
    };
  }

  @EventPattern(ANSWERED_TYPES, REQUESTS_TRANSPORT)
  answer(@Payload() record: DecodedRecord, @Ctx() context: unknown): Promise<void> {
    const topics = { facts: this.config.topics.segments, outcomes: this.config.topics.outcomes };
    // Bound to exactly the types of the map.
    return decideRequest(record, context, SOURCE, topics, handlerFor(this.handlers, record.type)!);
  }
}
