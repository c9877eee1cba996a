import {
  LINK_REQUEST_TYPES,
  MESSAGING_REQUEST_TYPES,
  type DecodedRecord,
  type LinkClicksRecordedV1,
  type MessageAttemptRecordedV1,
  type MessageReceiptRecordedV1,
  type MessageSendRequestedV1,
  type MessageTimeoutRecordedV1,
} from '@cms/contracts';
import { workspaceIdOf, type ChunkHandler, type ChunkRecord } from '@cms/kafka';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import { messageIdOfRecord } from '../message-ids';
import { MessageRequests } from '../message-requests';
import { ChunkMessageStore, emptyMessageKeys, keyOf, type MessageKeys } from './chunk-message-store';

/** What a record can read: added to `keys` (what the messages it names lead to is added on loading). */
function addKeys(keys: MessageKeys, record: DecodedRecord): void {
  const workspaceId = workspaceIdOf(record);
  switch (record.type) {
    case MESSAGING_REQUEST_TYPES.messageSend: {
      const data = record.data as MessageSendRequestedV1;
      // The message it makes: known absent (or there already) without a query of its own.
      keys.messageIds.add(messageIdOfRecord(record.id));
      if (data.idempotency_key !== undefined)
        keys.idempotencyKeys.add(keyOf(workspaceId, data.idempotency_key));
      keys.contactIds.add(data.contact_id);
      for (const step of data.route) {
        if (step.channel_id !== undefined) keys.channelIds.add(step.channel_id);
        else keys.defaultWorkspaces.add(workspaceId);
        // A text's one step names no template.
        if (step.template_id !== undefined) keys.templateIds.add(step.template_id);
      }
      return;
    }
    case MESSAGING_REQUEST_TYPES.messageAttempt: {
      const data = record.data as MessageAttemptRecordedV1;
      keys.messageIds.add(data.message_id);
      // Its links are added as they are unless the message has them (read with the chunk's clicks).
      if (data.links !== undefined && data.links.length > 0) keys.linkMessageIds.add(data.message_id);
      return;
    }
    case LINK_REQUEST_TYPES.linkClicks: {
      for (const click of (record.data as LinkClicksRecordedV1).clicks) {
        keys.messageIds.add(click.message_id);
        keys.linkMessageIds.add(click.message_id);
      }
      return;
    }
    case MESSAGING_REQUEST_TYPES.messageReceipt:
    case MESSAGING_REQUEST_TYPES.messageTimeout: {
      const data = record.data as MessageReceiptRecordedV1 | MessageTimeoutRecordedV1;
      keys.messageIds.add(data.message_id);
      return;
    }
  }
}

/**
 * The requests of messages' lives in a partition's chunk (sends, attempts, receipts, the ends of
 * waits), decided together: the state they can read is loaded in a few statements, each record is
 * decided in order by the same handler as on its own (against that state, in memory), and what they
 * wrote is stored with a statement or two per table.
 */
@Injectable()
export class MessagesChunk implements ChunkHandler {
  constructor(@Inject(MessageRequests) private readonly requests: MessageRequests) {}

  takes(record: DecodedRecord): boolean {
    if (!this.requests.decides(record.type)) return false;
    try {
      workspaceIdOf(record);
    } catch {
      return false;
    }
    return true;
  }

  /** A refused record is undone through the store's undo log, leaving the others' writes. */
  async apply(records: ChunkRecord[], manager: EntityManager): Promise<void> {
    const keys = emptyMessageKeys();
    for (const { record } of records) addKeys(keys, record);
    const store = await ChunkMessageStore.load(manager, keys);
    for (const { record, context, inSpan } of records) {
      await inSpan(() => this.requests.decide(record, context, store));
    }
    await store.flush(manager);
  }
}
