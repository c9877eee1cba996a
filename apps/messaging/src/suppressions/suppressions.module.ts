import { Module } from '@nestjs/common';

import { CreateSuppressionHandler } from './create-suppression/create-suppression.handler';
import { DeleteSuppressionHandler } from './delete-suppression/delete-suppression.handler';
import { SuppressionsController } from './read-suppressions/suppressions.controller';

const HANDLERS = [CreateSuppressionHandler, DeleteSuppressionHandler];

/** The workspace's suppression list: its API writes as the requests consumer decides them, and its reads. */
@Module({
  controllers: [SuppressionsController],
  providers: HANDLERS,
  exports: HANDLERS,
})
export class SuppressionsModule {}
