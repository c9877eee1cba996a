import { SEGMENTS_REQUEST_TYPES, type RequestRecord } from '@cms/contracts';
import { DecidesRequest, decideRequest } from '@cms/kafka';
import { Controller, Inject } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';

import { SEGMENTS_CONFIG, SOURCE, type SegmentsConfig } from '../../config';
import { FailImportHandler } from './fail-import.handler';

/** The import worker's record, decided in the workspace's order: nobody waits for it, so no outcome. */
@Controller()
export class FailImportConsumer {
  constructor(
    @Inject(SEGMENTS_CONFIG) private readonly config: SegmentsConfig,
    @Inject(FailImportHandler) private readonly handler: FailImportHandler,
  ) {}

  @DecidesRequest(SEGMENTS_REQUEST_TYPES.importFail)
  fail(
    @Payload() record: RequestRecord<typeof SEGMENTS_REQUEST_TYPES.importFail>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return decideRequest(record, context, SOURCE, { facts: this.config.topics.segments }, (decision) =>
      this.handler.handle(decision),
    );
  }
}
