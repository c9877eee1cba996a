import { Module } from '@nestjs/common';

import { ContactViewChunk, SuppressionViewChunk, ViewFactsConsumer } from './view-facts.consumer';

/** The view of contacts, tags, events and suppressions the audiences are evaluated on. */
@Module({
  controllers: [ViewFactsConsumer],
  providers: [ContactViewChunk, SuppressionViewChunk],
  exports: [ContactViewChunk, SuppressionViewChunk],
})
export class ViewModule {}
