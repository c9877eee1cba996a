import { Module } from '@nestjs/common';

import { RecordAttemptHandler } from './record-attempt/record-attempt.handler';
import { RecordReceiptHandler } from './record-receipt/record-receipt.handler';
import { MessagesController } from './read-messages/messages.controller';
import { SandboxInboundHandler } from './sandbox-inbound/sandbox-inbound.handler';
import { SendMessageHandler } from './send-message/send-message.handler';

/** The message lifecycle as the requests consumer decides it, and its reads. */
@Module({
  controllers: [MessagesController],
  providers: [SendMessageHandler, RecordAttemptHandler, RecordReceiptHandler, SandboxInboundHandler],
  exports: [SendMessageHandler, RecordAttemptHandler, RecordReceiptHandler, SandboxInboundHandler],
})
export class MessagesModule {}
