import { SEGMENTS_REQUEST_TYPES, type RequestRecord } from '@cms/contracts';
import { answerRequest, Decision, DecidesRequest, recordContext } from '@cms/kafka';
import { Controller, Inject } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';

import { SEGMENTS_CONFIG, SOURCE, type SegmentsConfig } from '../../config';
import { REQUESTS_TRANSPORT } from '../../transports';
import { SnapshotAudienceHandler } from './snapshot-audience.handler';

/**
 * The broadcasts service's snapshot requests, decided in the workspace's order with the audience
 * writes: nobody waits for them, so no outcome; the send reads the facts.
 */
@Controller()
export class SnapshotAudienceConsumer {
  constructor(
    @Inject(SEGMENTS_CONFIG) private readonly config: SegmentsConfig,
    @Inject(SnapshotAudienceHandler) private readonly handler: SnapshotAudienceHandler,
  ) {}

  @DecidesRequest(SEGMENTS_REQUEST_TYPES.audienceSnapshot, REQUESTS_TRANSPORT)
  snapshot(
    @Payload() record: RequestRecord<typeof SEGMENTS_REQUEST_TYPES.audienceSnapshot>,
    @Ctx() rawContext: unknown,
  ): Promise<void> {
    const context = recordContext(rawContext);
    const decision = new Decision(record, context.manager, SOURCE, !context.replaying);
    return answerRequest(decision, context, { facts: this.config.topics.segments }, (taking) =>
      this.handler.handle(taking, context.replaying),
    );
  }
}
