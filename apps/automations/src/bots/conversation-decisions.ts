import {
  botScheduleNext,
  CONTACT_REQUEST_TYPES,
  MESSAGING_REQUEST_TYPES,
  TAG_REQUEST_TYPES,
  type AutomationEventRecordedV1,
  type BotAnswerRecordedV1,
  type BotAudienceRecordedV1,
  type ContactSnapshotV1,
  type BotInboundRecordedV1,
  type BotTimerFiredV1,
} from '@cms/contracts';
import type { Answer, Decision } from '@cms/kafka';
import { signalOnCommit } from '@cms/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import { isDeepStrictEqual } from 'node:util';
import type { EntityManager } from 'typeorm';

import { AUTOMATIONS_CONFIG, type AutomationsConfig } from '../config';
import type { AutomationsDecision } from '../decisions/automations-decision';
import {
  BotAudienceWalkEntity,
  BotConversationEntity,
  BotEntity,
  BotModelCallEntity,
  BotTimerEntity,
} from './bot.entity';
import { conversationBot, conversationRow, conversationState } from './bot.resource';
import {
  endConversation,
  expiryDue,
  inboundMessage,
  modelAnswer,
  startConversation,
  type ConversationEffect,
  type Inbound,
  type Moved,
} from './engine/conversation-engine';

/** Conversation ids interleave the partitions of the requests topic, as run ids do. */
export const CONVERSATION_ID_PARTITIONS = 256;

/** The commit signals that wake the bot timer worker and the model worker. */
export const BOT_TIMERS_SIGNAL = 'bot_timers';
export const BOT_MODEL_CALLS_SIGNAL = 'bot_model_calls';

/** Nobody waits for a bot input: the answer only closes the decision. */
const NOTED: Answer = { status: 202 };

/** Where the record that moves conversations sits: its partition numbers new ones; below the horizon no job is set. */
export interface BotRecordPlace {
  partition: number;
  replaying: boolean;
}

export const BOT_AUDIENCE_WALKS_SIGNAL = 'bot_audience_walks';

export function expiryTimerId(conversationId: number): string {
  return `expiry:${conversationId}`;
}

export function scheduleTimerId(botId: number): string {
  return `schedule:${botId}`;
}

/** The enabled bots of a workspace a message or an event may start, lowest id first. */
async function startingBots(manager: EntityManager, workspaceId: number): Promise<BotEntity[]> {
  return manager
    .getRepository(BotEntity)
    .find({ where: { workspaceId, enabled: true }, order: { id: 'ASC' } });
}

/** Whether a bot may start a conversation with the contact: its audience, as the input recorded it. */
function admits(bot: BotEntity, memberships: Record<string, boolean> | undefined): boolean {
  return bot.targetGroupId === null || memberships?.[String(bot.targetGroupId)] === true;
}

/**
 * Moves bot conversations by one record of the requests topic (extensions §12, "Bots"), in the
 * decision's transaction: the engine decides, this carries out what it decided (the conversation's row,
 * the requests to messaging and contacts, its expiry timer and its model calls).
 */
@Injectable()
export class ConversationDecisions {
  private readonly timeoutMs: number;

  constructor(@Inject(AUTOMATIONS_CONFIG) config: AutomationsConfig) {
    this.timeoutMs = config.bots.conversationTimeoutMs;
  }

  /** A contact wrote: its active conversation on the channel takes it, or a bot starts one. */
  async inbound(decision: Decision<BotInboundRecordedV1>, place: BotRecordPlace): Promise<Answer> {
    const { data, manager, workspaceId } = decision;
    if (data.contact_id === null) return NOTED;
    const active = await this.activeOn(manager, workspaceId, data.contact_id, data.channel_id);
    const inbound: Inbound = {
      message_id: data.message_id,
      text: data.text,
      at: decision.at,
      data: data.contact?.data ?? null,
    };
    if (data.keyword === 'opt_in') return NOTED;
    if (active !== null) {
      const bot = await manager.getRepository(BotEntity).findOneBy({ id: active.botId });
      if (bot === null) return NOTED;
      const moved =
        data.keyword === 'opt_out'
          ? endConversation(conversationBot(bot), conversationState(active), 'opted_out', decision.at)
          : inboundMessage(conversationBot(bot), conversationState(active), inbound);
      await this.carryOut(decision, place, bot, moved, active);
      return NOTED;
    }
    if (data.keyword === 'opt_out') return NOTED;
    const text = (data.text ?? '').trim().toLowerCase();
    const bots = (await startingBots(manager, workspaceId)).filter(
      (bot) =>
        (bot.settings.channel_id === undefined ||
          bot.settings.channel_id === null ||
          bot.settings.channel_id === data.channel_id) &&
        admits(bot, data.memberships),
    );
    const bot =
      bots.find(
        (candidate) => candidate.triggerType === 'keyword' && candidate.triggerValue?.toLowerCase() === text,
      ) ?? bots.find((candidate) => candidate.triggerType === 'any_message');
    if (bot === undefined) return NOTED;
    const start = {
      id: await this.nextId(manager, place.partition),
      bot_id: bot.id,
      contact_id: data.contact_id,
      channel_id: data.channel_id,
      data: data.contact?.data ?? {},
      at: decision.at,
    };
    await this.carryOut(decision, place, bot, startConversation(conversationBot(bot), start, inbound), null);
    return NOTED;
  }

  /**
   * A recorded event starts a conversation with its contact for each enabled `event` bot of that name,
   * on the bot's channel, where the contact has no active conversation on it (lowest bot id first).
   */
  async event(
    decision: Decision<AutomationEventRecordedV1>,
    place: BotRecordPlace,
    /** The workspace's enabled bots, oldest first. */
    enabled: readonly BotEntity[],
  ): Promise<void> {
    const { data, manager, workspaceId } = decision;
    const bots = enabled.filter((bot) => bot.triggerType === 'event' && bot.triggerValue === data.event.name);
    for (const bot of bots) {
      if (bot.targetGroupId === null) {
        await this.startWith(decision, place, bot, data.contact);
        continue;
      }
      // Limited to an audience: the audience worker asks whether the contact is a member now, and the
      // answer, recorded in the log, starts the conversation (or not).
      if (!place.replaying)
        await this.walk(manager, {
          tickId: `event:${data.event.id}:${bot.id}`,
          workspaceId,
          botId: bot.id,
          audienceId: bot.targetGroupId,
          contactId: data.contact.contact_id,
        });
    }
  }

  /**
   * A page of a schedule bot's audience at a tick, or the answer about one contact of an event bot:
   * each contact with no active conversation on the bot's channel starts one (extensions §12).
   */
  async audience(decision: Decision<BotAudienceRecordedV1>, place: BotRecordPlace): Promise<Answer> {
    const { data, manager, workspaceId } = decision;
    const bot = await manager.getRepository(BotEntity).findOneBy({ id: data.bot_id, workspaceId });
    if (bot === null || !bot.enabled) return NOTED;
    for (const contact of data.contacts) await this.startWith(decision, place, bot, contact);
    return NOTED;
  }

  /**
   * A bot's write: a schedule bot's next tick is armed, any other's (or a deleted one's) cleared. Below
   * the replay horizon the timer an earlier life set is kept.
   */
  async scheduleChanged(
    decision: AutomationsDecision<unknown>,
    botId: number,
    bot: BotEntity | null,
  ): Promise<void> {
    const { manager } = decision;
    if (!decision.live) return;
    const next =
      bot !== null && bot.enabled && bot.triggerType === 'schedule'
        ? botScheduleNext(
            bot.settings.schedule_cron!,
            bot.settings.schedule_timezone ?? 'UTC',
            decision.atDate,
          )
        : null;
    await this.armSchedule(manager, decision.workspaceId, botId, next);
  }

  private async armSchedule(manager: EntityManager, workspaceId: number, botId: number, next: Date | null) {
    if (next === null) {
      await manager.getRepository(BotTimerEntity).delete({ id: scheduleTimerId(botId) });
      return;
    }
    await manager.getRepository(BotTimerEntity).save(
      Object.assign(new BotTimerEntity(), {
        id: scheduleTimerId(botId),
        workspaceId,
        kind: 'schedule',
        conversationId: null,
        botId,
        dueAt: next,
      }),
    );
    await signalOnCommit(manager, BOT_TIMERS_SIGNAL);
  }

  private async walk(
    manager: EntityManager,
    walk: {
      tickId: string;
      workspaceId: number;
      botId: number;
      audienceId: number;
      contactId: number | null;
    },
  ): Promise<void> {
    await manager
      .createQueryBuilder()
      .insert()
      .into(BotAudienceWalkEntity)
      .values({ ...walk, after: 0, pages: 0 })
      .orIgnore()
      .execute();
    await signalOnCommit(manager, BOT_AUDIENCE_WALKS_SIGNAL);
  }

  /** A conversation of `bot` with the contact on the bot's channel, unless one is active there. */
  private async startWith(
    decision: Decision<unknown>,
    place: BotRecordPlace,
    bot: BotEntity,
    contact: ContactSnapshotV1,
  ): Promise<void> {
    const { manager, workspaceId } = decision;
    const channelId = bot.settings.channel_id as number;
    if ((await this.activeOn(manager, workspaceId, contact.contact_id, channelId)) !== null) return;
    const start = {
      id: await this.nextId(manager, place.partition),
      bot_id: bot.id,
      contact_id: contact.contact_id,
      channel_id: channelId,
      data: contact.data,
      at: decision.at,
    };
    await this.carryOut(decision, place, bot, startConversation(conversationBot(bot), start, null), null);
  }

  /** A conversation's expiry fell due. */
  async timer(decision: Decision<BotTimerFiredV1>, place: BotRecordPlace): Promise<Answer> {
    const { data, manager, workspaceId } = decision;
    if (data.kind === 'schedule') return this.tick(decision, place);
    if (data.conversation_id === undefined) return NOTED;
    const row = await manager
      .getRepository(BotConversationEntity)
      .findOneBy({ id: data.conversation_id, workspaceId });
    const bot = row === null ? null : await manager.getRepository(BotEntity).findOneBy({ id: row.botId });
    if (row === null || bot === null) return NOTED;
    const moved = expiryDue(conversationBot(bot), conversationState(row), this.timeoutMs, decision.at);
    await this.carryOut(decision, place, bot, moved, row);
    return NOTED;
  }

  /**
   * A schedule bot's tick: the next one is armed, and the audience worker pages through the bot's
   * audience as it is now, each page recorded in the log as the members it starts conversations with.
   */
  private async tick(decision: Decision<BotTimerFiredV1>, place: BotRecordPlace): Promise<Answer> {
    const { data, manager, workspaceId } = decision;
    const bot =
      data.bot_id === undefined
        ? null
        : await manager.getRepository(BotEntity).findOneBy({ id: data.bot_id, workspaceId });
    // Below the replay horizon an earlier life armed the next tick and walked the audience.
    if (bot === null || !bot.enabled || bot.triggerType !== 'schedule' || place.replaying) return NOTED;
    const next = botScheduleNext(
      bot.settings.schedule_cron!,
      bot.settings.schedule_timezone ?? 'UTC',
      new Date(data.due_at),
    );
    await this.armSchedule(manager, workspaceId, bot.id, next);
    await this.walk(manager, {
      tickId: `${data.timer_id}@${data.due_at}`,
      workspaceId,
      botId: bot.id,
      audienceId: bot.targetGroupId!,
      contactId: null,
    });
    return NOTED;
  }

  /** The model's answer, recorded by the model worker. */
  async answer(decision: Decision<BotAnswerRecordedV1>, place: BotRecordPlace): Promise<Answer> {
    const { data, manager, workspaceId } = decision;
    const row = await manager
      .getRepository(BotConversationEntity)
      .findOneBy({ id: data.conversation_id, workspaceId });
    const bot = row === null ? null : await manager.getRepository(BotEntity).findOneBy({ id: row.botId });
    if (row === null || bot === null) return NOTED;
    const moved = modelAnswer(conversationBot(bot), conversationState(row), {
      inbound_message_id: data.inbound_message_id,
      content: data.content,
      failure: data.failure,
      at: decision.at,
    });
    await this.carryOut(decision, place, bot, moved, row);
    return NOTED;
  }

  /** A deleted bot's active conversations end `completed` (`bot_deleted`). */
  async botDeleted(decision: Decision<unknown>, bot: BotEntity, place: BotRecordPlace): Promise<void> {
    const rows = await decision.manager
      .getRepository(BotConversationEntity)
      .find({ where: { botId: bot.id, status: 'active' }, order: { id: 'ASC' } });
    for (const row of rows) {
      const moved = endConversation(conversationBot(bot), conversationState(row), 'bot_deleted', decision.at);
      await this.carryOut(decision, place, bot, moved, row);
    }
  }

  private activeOn(
    manager: EntityManager,
    workspaceId: number,
    contactId: number,
    channelId: number,
  ): Promise<BotConversationEntity | null> {
    return manager
      .getRepository(BotConversationEntity)
      .findOne({ where: { workspaceId, contactId, channelId, status: 'active' }, order: { id: 'ASC' } });
  }

  private async nextId(manager: EntityManager, partition: number): Promise<number> {
    const rows: Array<{ next: number }> = await manager.query(
      `INSERT INTO bot_conversation_counters (partition, next) VALUES ($1, 1)
       ON CONFLICT (partition) DO UPDATE SET next = bot_conversation_counters.next + 1
       RETURNING next`,
      [partition],
    );
    return (rows[0]!.next - 1) * CONVERSATION_ID_PARTITIONS + partition + 1;
  }

  private async carryOut(
    decision: Decision<unknown>,
    place: BotRecordPlace,
    bot: BotEntity,
    { state, effects }: Moved,
    stored: BotConversationEntity | null,
  ): Promise<void> {
    if (effects.length === 0 && stored !== null && isDeepStrictEqual(state, conversationState(stored)))
      return;
    const row = conversationRow(state, decision.workspaceId, stored ?? new BotConversationEntity());
    await decision.manager.getRepository(BotConversationEntity).save(row);
    for (const effect of effects) await this.effect(decision, place, bot, row, effect);
  }

  private async effect(
    decision: Decision<unknown>,
    place: BotRecordPlace,
    bot: BotEntity,
    row: BotConversationEntity,
    effect: ConversationEffect,
  ): Promise<void> {
    const subject = String(row.contactId);
    const { manager } = decision;
    switch (effect.type) {
      case 'send':
        decision.requestWithId(effect.request_id, MESSAGING_REQUEST_TYPES.messageSend, subject, {
          contact_id: row.contactId,
          route: [
            effect.template_id === undefined
              ? { channel_id: row.channelId }
              : { channel_id: row.channelId, template_id: effect.template_id },
          ],
          purpose: 'transactional',
          variables: {},
          ...(effect.text === undefined ? {} : { text: effect.text }),
          bot: { id: bot.id, name: bot.name, conversation_id: row.id },
        });
        return;
      case 'save_answer':
        decision.requestWithId(effect.request_id, CONTACT_REQUEST_TYPES.update, subject, {
          contact_id: row.contactId,
          data: { [effect.field]: effect.value },
        });
        return;
      case 'tag':
        decision.requestWithId(effect.request_id, TAG_REQUEST_TYPES.attach, subject, {
          contact_id: row.contactId,
          tag_ids: [effect.tag_id],
        });
        return;
      case 'ask_model':
        // Below the replay horizon the model was asked by an earlier life: its answer is in the log.
        if (place.replaying) return;
        await manager
          .createQueryBuilder()
          .insert()
          .into(BotModelCallEntity)
          .values({
            inboundMessageId: effect.inbound_message_id,
            workspaceId: decision.workspaceId,
            conversationId: row.id,
            createdAt: decision.atDate,
          })
          .orIgnore()
          .execute();
        await signalOnCommit(manager, BOT_MODEL_CALLS_SIGNAL);
        return;
      case 'arm_expiry':
        if (place.replaying) return;
        await manager.getRepository(BotTimerEntity).save(
          Object.assign(new BotTimerEntity(), {
            id: expiryTimerId(row.id),
            workspaceId: decision.workspaceId,
            kind: 'expiry',
            conversationId: row.id,
            botId: bot.id,
            dueAt: new Date(row.lastActivityAt.getTime() + this.timeoutMs),
          }),
        );
        await signalOnCommit(manager, BOT_TIMERS_SIGNAL);
        return;
      case 'clear_expiry':
        if (place.replaying) return;
        await manager.getRepository(BotTimerEntity).delete({ id: expiryTimerId(row.id) });
        return;
    }
  }
}
