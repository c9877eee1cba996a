import { Module } from '@nestjs/common';

import { ChannelsModule } from '../channels/channels.module';
import { SendingModule } from '../sending/sending.module';
import { RecordCallbackHandler } from './record-callback/record-callback.handler';
import { VerifyCallbackController } from './verify-callback/verify-callback.controller';

/** Provider callbacks: verified for the gateway, then decided from the log. */
@Module({
  imports: [ChannelsModule, SendingModule],
  controllers: [VerifyCallbackController],
  providers: [RecordCallbackHandler],
  exports: [RecordCallbackHandler],
})
export class CallbacksModule {}
