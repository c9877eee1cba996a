import { Module } from '@nestjs/common';

import { SourceFactsChunk, SourceFactsConsumer } from './fan-out/source-facts.consumer';
import { DeliveriesController } from './read-deliveries/deliveries.controller';
import { RedeliverHandler } from './redeliver/redeliver.handler';
import { SendTestHandler } from './send-test/send-test.handler';

@Module({
  controllers: [DeliveriesController, SourceFactsConsumer],
  providers: [RedeliverHandler, SendTestHandler, SourceFactsChunk],
  exports: [RedeliverHandler, SendTestHandler, SourceFactsChunk],
})
export class DeliveriesModule {}
