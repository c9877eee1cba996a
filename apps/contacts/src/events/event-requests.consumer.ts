import { EVENT_REQUEST_TYPES, type DecodedRecord, type EventRecordRequestedV1 } from '@cms/contracts';
import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';

import { RequestDecider } from '../decisions/request-decider';
import { RecordEventHandler } from './record-event/record-event.handler';

@Controller()
export class EventRequestsConsumer {
  constructor(
    @Inject(RequestDecider) private readonly decider: RequestDecider,
    @Inject(RecordEventHandler) private readonly recordEvent: RecordEventHandler,
  ) {}

  @EventPattern(EVENT_REQUEST_TYPES.record)
  record(@Payload() record: DecodedRecord<EventRecordRequestedV1>, @Ctx() context: unknown): Promise<void> {
    return this.decider.decide(record, context, (decision) => this.recordEvent.handle(decision));
  }
}
