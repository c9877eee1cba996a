import { Module } from '@nestjs/common';

import { SourceFactsConsumer } from './fan-out/source-facts.consumer';
import { DeliveriesController } from './read-deliveries/deliveries.controller';
import { RedeliverHandler } from './redeliver/redeliver.handler';
import { SendTestHandler } from './send-test/send-test.handler';

@Module({
  controllers: [DeliveriesController, SourceFactsConsumer],
  providers: [RedeliverHandler, SendTestHandler],
  exports: [RedeliverHandler, SendTestHandler],
})
export class DeliveriesModule {}
