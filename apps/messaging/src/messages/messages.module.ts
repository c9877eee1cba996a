import { Module } from '@nestjs/common';

import { LinksModule } from '../links/links.module';
import { MessagesChunk } from './chunk/messages-chunk';
import { MessageRequests } from './message-requests';
import { RecordInboundMatchHandler } from './record-inbound-match/record-inbound-match.handler';
import { RecordAttemptHandler } from './record-attempt/record-attempt.handler';
import { RecordReceiptHandler } from './record-receipt/record-receipt.handler';
import { MessagesController } from './read-messages/messages.controller';
import { SandboxInboundHandler } from './sandbox-inbound/sandbox-inbound.handler';
import { SendMessageHandler } from './send-message/send-message.handler';

/** The message lifecycle as the requests consumer decides it, and its reads. */
@Module({
  imports: [LinksModule],
  controllers: [MessagesController],
  providers: [
    SendMessageHandler,
    RecordAttemptHandler,
    RecordReceiptHandler,
    SandboxInboundHandler,
    RecordInboundMatchHandler,
    MessageRequests,
    MessagesChunk,
  ],
  exports: [SandboxInboundHandler, RecordInboundMatchHandler, MessageRequests, MessagesChunk],
})
export class MessagesModule {}
