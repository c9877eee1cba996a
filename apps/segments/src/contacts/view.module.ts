import { Module } from '@nestjs/common';

import { CONTACT_VIEW_CONSUMER } from './contact-view';
import { SuppressionViewChunk, ViewFactsConsumer } from './view-facts.consumer';

/** The view of contacts, tags, events and suppressions the audiences are evaluated on. */
@Module({
  imports: [CONTACT_VIEW_CONSUMER.module],
  controllers: [ViewFactsConsumer],
  providers: [SuppressionViewChunk],
  exports: [SuppressionViewChunk],
})
export class ViewModule {}
