import { Module } from '@nestjs/common';

import { MessagesChunk } from './chunk/messages-chunk';
import { MessageRequests } from './message-requests';
import { RecordAttemptHandler } from './record-attempt/record-attempt.handler';
import { RecordReceiptHandler } from './record-receipt/record-receipt.handler';
import { MessagesController } from './read-messages/messages.controller';
import { SandboxInboundHandler } from './sandbox-inbound/sandbox-inbound.handler';
import { SendMessageHandler } from './send-message/send-message.handler';

/** The message lifecycle as the requests consumer decides it, and its reads. */
@Module({
  controllers: [MessagesController],
  providers: [
    SendMessageHandler,
    RecordAttemptHandler,
    RecordReceiptHandler,
    SandboxInboundHandler,
    MessageRequests,
    MessagesChunk,
  ],
  exports: [SandboxInboundHandler, MessageRequests, MessagesChunk],
})
export class MessagesModule {}
