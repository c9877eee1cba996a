import { Module } from '@nestjs/common';

import { ContactsModule } from '../contacts/contacts.module';
import { AssignTagsHandler } from './assign-tags/assign-tags.handler';
import { CreateTagHandler } from './create-tag/create-tag.handler';
import { DeleteTagHandler } from './delete-tag/delete-tag.handler';
import { TagsController } from './read-tags/tags.controller';
import { TagRequestsConsumer } from './tag-requests.consumer';
import { UpdateTagHandler } from './update-tag/update-tag.handler';

@Module({
  imports: [ContactsModule],
  controllers: [TagsController, TagRequestsConsumer],
  providers: [CreateTagHandler, UpdateTagHandler, DeleteTagHandler, AssignTagsHandler],
})
export class TagsModule {}
