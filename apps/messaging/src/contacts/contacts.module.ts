import { Module } from '@nestjs/common';

import { ContactFactsChunk, ContactFactsConsumer } from './contact-facts.consumer';

@Module({
  controllers: [ContactFactsConsumer],
  providers: [ContactFactsChunk],
  exports: [ContactFactsChunk],
})
export class ContactsModule {}
