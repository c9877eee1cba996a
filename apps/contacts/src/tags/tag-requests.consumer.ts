import {
  TAG_REQUEST_TYPES,
  type DecodedRecord,
  type TagAssignmentRequestedV1,
  type TagCreateRequestedV1,
  type TagDeleteRequestedV1,
  type TagUpdateRequestedV1,
} from '@cms/contracts';
import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';

import { RequestDecider } from '../decisions/request-decider';
import { AssignTagsHandler } from './assign-tags/assign-tags.handler';
import { CreateTagHandler } from './create-tag/create-tag.handler';
import { DeleteTagHandler } from './delete-tag/delete-tag.handler';
import { UpdateTagHandler } from './update-tag/update-tag.handler';

/** Hands each tag request record to its use case; the decider answers it. */
@Controller()
export class TagRequestsConsumer {
  constructor(
    @Inject(RequestDecider) private readonly decider: RequestDecider,
    @Inject(CreateTagHandler) private readonly create: CreateTagHandler,
    @Inject(UpdateTagHandler) private readonly update: UpdateTagHandler,
    @Inject(DeleteTagHandler) private readonly remove: DeleteTagHandler,
    @Inject(AssignTagsHandler) private readonly assign: AssignTagsHandler,
  ) {}

  @EventPattern(TAG_REQUEST_TYPES.create)
  createTag(@Payload() record: DecodedRecord<TagCreateRequestedV1>, @Ctx() context: unknown): Promise<void> {
    return this.decider.decide(record, context, (decision) => this.create.handle(decision));
  }

  @EventPattern(TAG_REQUEST_TYPES.update)
  updateTag(@Payload() record: DecodedRecord<TagUpdateRequestedV1>, @Ctx() context: unknown): Promise<void> {
    return this.decider.decide(record, context, (decision) => this.update.handle(decision));
  }

  @EventPattern(TAG_REQUEST_TYPES.delete)
  deleteTag(@Payload() record: DecodedRecord<TagDeleteRequestedV1>, @Ctx() context: unknown): Promise<void> {
    return this.decider.decide(record, context, (decision) => this.remove.handle(decision));
  }

  @EventPattern(TAG_REQUEST_TYPES.sync)
  syncTags(
    @Payload() record: DecodedRecord<TagAssignmentRequestedV1>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.decider.decide(record, context, (decision) => this.assign.handle(decision, 'sync'));
  }

  @EventPattern(TAG_REQUEST_TYPES.attach)
  attachTags(
    @Payload() record: DecodedRecord<TagAssignmentRequestedV1>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.decider.decide(record, context, (decision) => this.assign.handle(decision, 'attach'));
  }

  @EventPattern(TAG_REQUEST_TYPES.detach)
  detachTags(
    @Payload() record: DecodedRecord<TagAssignmentRequestedV1>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.decider.decide(record, context, (decision) => this.assign.handle(decision, 'detach'));
  }
}
