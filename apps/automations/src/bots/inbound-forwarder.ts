import {
  BOT_INPUT_TYPES,
  type BotInboundRecordedV1,
  type DecodedRecord,
  type MessageFactV1,
} from '@cms/contracts';
import { workspaceIdOf, type RecordContext } from '@cms/kafka';

import { ContactEntity } from '../contacts/contact.entity';
import { contactSnapshot, emitRunInput } from '../runs/run-inputs';
import type { AudienceMembers } from './audience-members';
import { BotEntity } from './bot.entity';

/**
 * Turns a message.received fact into the bot input that decides it (extensions §12, "Which bot
 * answers"), with what the decision may not look up itself: the contact as the service's view has it
 * and, for each audience an enabled bot of the workspace is limited to, whether the contact is a member
 * now. A workspace with no bot gets no input.
 */
export async function forwardInbound(
  record: DecodedRecord,
  context: RecordContext,
  requestsTopic: string,
  audiences: AudienceMembers,
): Promise<void> {
  const message = record.data as MessageFactV1;
  // Below the replay horizon the input was appended by an earlier life.
  if (message.direction !== 'inbound' || context.replaying) return;
  const workspaceId = workspaceIdOf(record);
  const bots = await context.manager
    .getRepository(BotEntity)
    .find({ where: { workspaceId }, order: { id: 'ASC' } });
  if (bots.length === 0) return;
  const contactId = message.contact.id;
  const row =
    contactId === null
      ? null
      : await context.manager.getRepository(ContactEntity).findOneBy({ id: contactId, workspaceId });
  const limited = [
    ...new Set(
      bots.filter((bot) => bot.enabled && bot.targetGroupId !== null).map((bot) => bot.targetGroupId!),
    ),
  ];
  const input: BotInboundRecordedV1 = {
    message_id: message.id,
    channel_id: message.channel_id,
    channel: message.channel,
    contact_id: contactId,
    contact: row === null ? null : contactSnapshot(row),
    text: message.body ?? null,
    keyword: message.keyword ?? null,
    memberships:
      contactId === null || limited.length === 0
        ? {}
        : await audiences.memberships(workspaceId, contactId, limited),
    at: record.time,
  };
  emitRunInput(context, requestsTopic, record, BOT_INPUT_TYPES.inbound, message.id, input);
}
