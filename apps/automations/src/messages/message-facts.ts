import {
  LINK_FACT_TYPES,
  MESSAGING_FACT_TYPES,
  MESSAGING_RECORD_TYPES,
  RUN_INPUT_TYPES,
  selectRecordTypes,
  type AutomationMessageRecordedV1,
  type DecodedRecord,
  type LinkClickedV1,
  type MessageFactV1,
} from '@cms/contracts';
import { recordContext, type ChunkHandler, type ChunkRecord, type RecordContext } from '@cms/kafka';
import { Controller, Inject, Injectable, Module } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';

import { AUTOMATIONS_CONFIG, type AutomationsConfig } from '../config';
import { AudienceMembers } from '../bots/audience-members';
import { forwardInbound } from '../bots/inbound-forwarder';
import { emitRunInput } from '../runs/run-inputs';
import { MESSAGING_TRANSPORT } from '../transports';

/**
 * The facts of cms.messaging.v1 that tell a run about its messages (every stage of one, and human
 * clicks), and the inbound messages bots answer.
 */
export const MESSAGE_FACT_TYPES = [
  MESSAGING_FACT_TYPES.messageQueued,
  MESSAGING_FACT_TYPES.messageSent,
  MESSAGING_FACT_TYPES.messageDelivered,
  MESSAGING_FACT_TYPES.messageRead,
  MESSAGING_FACT_TYPES.messageFailed,
  MESSAGING_FACT_TYPES.messageSuppressed,
  LINK_FACT_TYPES.linkClicked,
  MESSAGING_FACT_TYPES.messageReceived,
] as const;

const SELECTION = selectRecordTypes(MESSAGE_FACT_TYPES, MESSAGING_RECORD_TYPES);

/** Their definitions, for the service's record types. */
export const MESSAGE_FACT_RECORD_TYPES = SELECTION.definitions;

/** The run input a message fact becomes, or null for a message no workflow made. */
export function messageInput(record: DecodedRecord): AutomationMessageRecordedV1 | null {
  if (record.type === LINK_FACT_TYPES.linkClicked) {
    const click = record.data as LinkClickedV1;
    if (click.workflow === null || click.workflow === undefined) return null;
    return {
      message_id: click.message_id,
      run_id: click.workflow.run_id,
      step: click.workflow.step,
      clicked: true,
      channel: click.channel,
      at: record.time,
    };
  }
  const message = record.data as MessageFactV1;
  if (message.direction !== 'outbound' || message.workflow === null || message.workflow === undefined)
    return null;
  return {
    message_id: message.id,
    run_id: message.workflow.run_id,
    step: message.workflow.step,
    status: message.status,
    channel: message.channel,
    at: record.time,
  };
}

async function forward(
  record: DecodedRecord,
  context: RecordContext,
  requestsTopic: string,
  audiences: AudienceMembers,
): Promise<void> {
  if (record.type === MESSAGING_FACT_TYPES.messageReceived) {
    await forwardInbound(record, context, requestsTopic, audiences);
    return;
  }
  const input = messageInput(record);
  if (input === null) return;
  emitRunInput(context, requestsTopic, record, RUN_INPUT_TYPES.message, input.message_id, input);
}

/** A lone message fact. */
@Controller()
export class MessageFactsConsumer {
  private readonly audiences: AudienceMembers;

  constructor(@Inject(AUTOMATIONS_CONFIG) private readonly config: AutomationsConfig) {
    this.audiences = new AudienceMembers(config.bots.segmentsUrl);
  }

  @EventPattern(MESSAGE_FACT_TYPES, MESSAGING_TRANSPORT)
  forward(@Payload() record: DecodedRecord, @Ctx() rawContext: unknown): Promise<void> {
    return forward(record, recordContext(rawContext), this.config.topics.requests, this.audiences);
  }
}

/** Message facts come by the thousand a second and most are of no run: a run of them is one transaction. */
@Injectable()
export class MessageFactsChunk implements ChunkHandler {
  private readonly audiences: AudienceMembers;

  constructor(@Inject(AUTOMATIONS_CONFIG) private readonly config: AutomationsConfig) {
    this.audiences = new AudienceMembers(config.bots.segmentsUrl);
  }

  takes(record: DecodedRecord): boolean {
    return SELECTION.takes(record);
  }

  async apply(records: ChunkRecord[]): Promise<void> {
    for (const { record, context } of records)
      await forward(record, context, this.config.topics.requests, this.audiences);
  }
}

@Module({ controllers: [MessageFactsConsumer], providers: [MessageFactsChunk], exports: [MessageFactsChunk] })
export class MessageFactsModule {}
