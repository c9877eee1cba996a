import {
  BOT_FACT_TYPES,
  patchedBot,
  readBotDefinition,
  type BotCreateRequestedV1,
  type BotDeleteRequestedV1,
  type BotUpdateRequestedV1,
} from '@cms/contracts';
import type { Answer } from '@cms/kafka';
import { Inject, Injectable } from '@nestjs/common';

import type { AutomationsDecision } from '../../decisions/automations-decision';
import { AutomationsException } from '../../decisions/automations.exception';
import { BotEntity } from '../bot.entity';
import { botColumns, botDefinition, botFact, botResource } from '../bot.resource';
import { ConversationDecisions } from '../conversation-decisions';

/**
 * Bot writes (extensions §12, "Bots"), decided in log order from the requests topic alone: audience,
 * channel, template and tag references were checked by the gateway with their owners before the
 * request was recorded, so a rebuild decides each write as live did.
 */
@Injectable()
export class WriteBotsHandler {
  constructor(@Inject(ConversationDecisions) private readonly conversations: ConversationDecisions) {}

  async create(decision: AutomationsDecision<BotCreateRequestedV1>): Promise<Answer> {
    const { bot_id: id, ...body } = decision.data;
    const bots = decision.manager.getRepository(BotEntity);
    if (await bots.existsBy({ id })) throw AutomationsException.idInUse(id, 'Bot');
    const reading = readBotDefinition(body, 'create');
    if (!reading.ok) throw AutomationsException.invalidBot(reading.problems);
    const bot = Object.assign(new BotEntity(), botColumns(reading.value), {
      id,
      workspaceId: decision.workspaceId,
      createdAt: decision.atDate,
      updatedAt: decision.atDate,
    });
    await bots.save(bot);
    await this.conversations.scheduleChanged(decision, id, bot);
    decision.fact(BOT_FACT_TYPES.created, String(id), botFact(bot, decision.at));
    return { status: 201, resource: botResource(bot) };
  }

  /** The attributes sent replace the stored ones; the bot as patched must pass the create rules. */
  async update(decision: AutomationsDecision<BotUpdateRequestedV1>): Promise<Answer> {
    const { bot_id: id, changes } = decision.data;
    const bots = decision.manager.getRepository(BotEntity);
    const bot = await bots.findOneBy({ id, workspaceId: decision.workspaceId });
    if (bot === null) throw AutomationsException.botNotFound(id);
    const sent = readBotDefinition(changes, 'update');
    if (!sent.ok) throw AutomationsException.invalidBot(sent.problems);
    const patched = patchedBot(botDefinition(bot), sent.value);
    if (!patched.ok) throw AutomationsException.invalidBot(patched.problems);
    Object.assign(bot, botColumns(patched.value), { updatedAt: decision.atDate });
    await bots.save(bot);
    await this.conversations.scheduleChanged(decision, id, bot);
    decision.fact(BOT_FACT_TYPES.updated, String(id), botFact(bot, decision.at));
    return { status: 200, resource: botResource(bot) };
  }

  /** Its active conversations end `completed` (`bot_deleted`); they stay readable. */
  async delete(decision: AutomationsDecision<BotDeleteRequestedV1>): Promise<Answer> {
    const { bot_id: id } = decision.data;
    const bots = decision.manager.getRepository(BotEntity);
    const bot = await bots.findOneBy({ id, workspaceId: decision.workspaceId });
    if (bot === null) throw AutomationsException.botNotFound(id);
    // Ending a conversation starts none: only the replay horizon of the place plays a part.
    await this.conversations.botDeleted(decision, bot, { partition: 0, replaying: !decision.live });
    await bots.delete({ id });
    await this.conversations.scheduleChanged(decision, id, null);
    decision.fact(BOT_FACT_TYPES.deleted, String(id), { bot_id: id, at: decision.at });
    return { status: 204 };
  }
}
