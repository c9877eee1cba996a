import {
  choiceFilter,
  foundByPathId,
  integerFilter,
  JsonApiException,
  ListQuery,
  onlyFilters,
  pageMeta,
  parseIdentifier,
  parsePagination,
  toListBody,
  toSqlWindow,
  WorkspaceId,
  type ListBody,
  type QueryParams,
} from '@cms/http';
import { BOT_MODES, BOT_TRIGGER_TYPES } from '@cms/contracts';
import { Controller, Get, Inject, Param } from '@nestjs/common';
import { DataSource, type FindOptionsWhere } from 'typeorm';

import { BotConversationEntity, BotEntity } from '../bot.entity';
import { botResource, conversationResource } from '../bot.resource';

const CONVERSATION_STATUSES = ['active', 'completed', 'expired', 'failed'] as const;

/** The reads of bots the gateway proxies to this service, in the workspace it authenticated (x-workspace-id). */
@Controller('internal/v1')
export class BotsController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  private get bots() {
    return this.dataSource.manager.getRepository(BotEntity);
  }

  private get conversations() {
    return this.dataSource.manager.getRepository(BotConversationEntity);
  }

  /** Oldest first; `filter[mode]`, `filter[trigger_type]`, `filter[enabled]`. */
  @Get('bots')
  async list(
    @WorkspaceId() workspaceId: number,
    @ListQuery() query: QueryParams,
  ): Promise<ListBody<Record<string, unknown>>> {
    const page = parsePagination(query);
    onlyFilters(query, ['mode', 'trigger_type', 'enabled']);
    const where: FindOptionsWhere<BotEntity> = { workspaceId };
    const mode = choiceFilter(query, 'mode', BOT_MODES);
    const trigger = choiceFilter(query, 'trigger_type', BOT_TRIGGER_TYPES);
    const enabled = choiceFilter(query, 'enabled', ['true', 'false'] as const);
    if (mode !== undefined) where.mode = mode;
    if (trigger !== undefined) where.triggerType = trigger;
    if (enabled !== undefined) where.enabled = enabled === 'true';
    const window = toSqlWindow(page);
    const [rows, total] = await this.bots.findAndCount({
      where,
      order: { id: 'ASC' },
      skip: window.offset,
      take: window.limit,
    });
    return toListBody(rows.map(botResource), pageMeta(total, page));
  }

  @Get('bots/:id')
  async one(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawId: string,
  ): Promise<{ data: Record<string, unknown> }> {
    const bot = await foundByPathId(rawId, 'Bot', (id) => this.bots.findOneBy({ id, workspaceId }));
    return { data: botResource(bot) };
  }

  /** Newest first; `filter[status]`, `filter[contact_id]`. */
  @Get('bots/:id/conversations')
  async conversationsOf(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawId: string,
    @ListQuery() query: QueryParams,
  ): Promise<ListBody<Record<string, unknown>>> {
    const bot = await foundByPathId(rawId, 'Bot', (id) => this.bots.findOneBy({ id, workspaceId }));
    const page = parsePagination(query);
    onlyFilters(query, ['status', 'contact_id']);
    const where: FindOptionsWhere<BotConversationEntity> = { workspaceId, botId: bot.id };
    const status = choiceFilter(query, 'status', CONVERSATION_STATUSES);
    if (status !== undefined) where.status = status;
    const contactId = integerFilter(query, 'contact_id');
    if (contactId !== undefined) where.contactId = contactId;
    const window = toSqlWindow(page);
    const [rows, total] = await this.conversations.findAndCount({
      where,
      order: { startedAt: 'DESC', id: 'DESC' },
      skip: window.offset,
      take: window.limit,
    });
    return toListBody(rows.map(conversationResource), pageMeta(total, page));
  }

  @Get('bot-conversations/:id')
  async conversation(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawId: string,
  ): Promise<{ data: Record<string, unknown> }> {
    const row = await foundByPathId(rawId, 'Bot conversation', (id) =>
      this.conversations.findOneBy({ id, workspaceId }),
    );
    return { data: conversationResource(row) };
  }

  /** Why a template, an audience or a channel cannot be deleted: the bots that name it. */
  @Get('templates/:id/bots')
  templateUses(@WorkspaceId() workspaceId: number, @Param('id') rawId: string) {
    return this.uses(workspaceId, rawId, 'Template', (bot, id) =>
      (bot.flowDefinition?.steps ?? []).some((step) => step.template_id === id),
    );
  }

  @Get('audiences/:id/bots')
  audienceUses(@WorkspaceId() workspaceId: number, @Param('id') rawId: string) {
    return this.uses(workspaceId, rawId, 'Audience', (bot, id) => bot.targetGroupId === id);
  }

  @Get('channels/:id/bots')
  channelUses(@WorkspaceId() workspaceId: number, @Param('id') rawId: string) {
    return this.uses(workspaceId, rawId, 'Channel', (bot, id) => bot.settings.channel_id === id);
  }

  private async uses(
    workspaceId: number,
    rawId: string,
    kind: string,
    names: (bot: BotEntity, id: number) => boolean,
  ): Promise<{ data: Array<{ id: number; name: string }> }> {
    const id = parseIdentifier(rawId);
    if (id === undefined) throw JsonApiException.notFound(`${kind} ${rawId} was not found.`);
    const bots = await this.bots.find({ where: { workspaceId }, order: { id: 'ASC' } });
    return { data: bots.filter((bot) => names(bot, id)).map((bot) => ({ id: bot.id, name: bot.name })) };
  }
}
