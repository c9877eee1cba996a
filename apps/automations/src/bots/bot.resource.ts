import type { BotDefinition, BotFactV1 } from '@cms/contracts';

import type { BotConversationEntity, BotEntity } from './bot.entity';
import type { ConversationBot, ConversationState } from './engine/conversation-engine';

/** The bot's definition, as readBotDefinition reads one. */
export function botDefinition(bot: BotEntity): BotDefinition {
  return {
    name: bot.name,
    description: bot.description,
    mode: bot.mode,
    trigger_type: bot.triggerType,
    trigger_value: bot.triggerValue,
    target_group_id: bot.targetGroupId,
    ai_instructions: bot.aiInstructions,
    ai_temperature: bot.aiTemperature,
    ai_max_tokens: bot.aiMaxTokens,
    flow_definition: bot.flowDefinition,
    settings: bot.settings,
    enabled: bot.enabled,
  };
}

/** The definition into the row's columns. */
export function botColumns(definition: BotDefinition): Partial<BotEntity> {
  return {
    name: definition.name,
    description: definition.description,
    mode: definition.mode,
    triggerType: definition.trigger_type,
    triggerValue: definition.trigger_value,
    targetGroupId: definition.target_group_id,
    aiInstructions: definition.ai_instructions,
    aiTemperature: definition.ai_temperature,
    aiMaxTokens: definition.ai_max_tokens,
    flowDefinition: definition.flow_definition,
    settings: definition.settings,
    enabled: definition.enabled,
  };
}

/** The bot as the read API and the write answers show it (extensions §12). */
export function botResource(bot: BotEntity): Record<string, unknown> {
  return {
    id: bot.id,
    ...botDefinition(bot),
    created_at: bot.createdAt.toISOString(),
    updated_at: bot.updatedAt.toISOString(),
  };
}

/** The data of `bot.created` and `bot.updated`: the bot whole. */
export function botFact(bot: BotEntity, at: string): BotFactV1 {
  return { bot_id: bot.id, ...botDefinition(bot), at } as BotFactV1;
}

export function conversationBot(bot: BotEntity): ConversationBot {
  return {
    id: bot.id,
    name: bot.name,
    mode: bot.mode,
    flow_definition: bot.flowDefinition,
    ai_instructions: bot.aiInstructions,
  };
}

export function conversationState(row: BotConversationEntity): ConversationState {
  return {
    id: row.id,
    bot_id: row.botId,
    contact_id: row.contactId,
    channel_id: row.channelId,
    status: row.status,
    end_reason: row.endReason,
    current_step: row.currentStep,
    messages: row.messages,
    started_at: row.startedAt.toISOString(),
    ended_at: row.endedAt?.toISOString() ?? null,
    last_activity_at: row.lastActivityAt.toISOString(),
    failed_answers: row.failedAnswers,
    answer: row.answer,
    data: row.data,
    awaiting: row.awaiting,
    sent: row.sent,
  };
}

export function conversationRow(
  state: ConversationState,
  workspaceId: number,
  row: BotConversationEntity,
): BotConversationEntity {
  return Object.assign(row, {
    id: state.id,
    workspaceId,
    botId: state.bot_id,
    contactId: state.contact_id,
    channelId: state.channel_id,
    status: state.status,
    endReason: state.end_reason,
    currentStep: state.current_step,
    messages: state.messages,
    startedAt: new Date(state.started_at),
    endedAt: state.ended_at === null ? null : new Date(state.ended_at),
    lastActivityAt: new Date(state.last_activity_at),
    failedAnswers: state.failed_answers,
    answer: state.answer,
    data: state.data,
    awaiting: state.awaiting,
    sent: state.sent,
  });
}

/** A conversation as `GET /api/v1/bot-conversations/{id}` shows it. */
export function conversationResource(row: BotConversationEntity): Record<string, unknown> {
  const {
    id,
    bot_id,
    contact_id,
    channel_id,
    status,
    end_reason,
    current_step,
    messages,
    started_at,
    ended_at,
  } = conversationState(row);
  return {
    id,
    bot_id,
    contact_id,
    channel_id,
    status,
    end_reason,
    current_step,
    messages,
    started_at,
    ended_at,
  };
}
