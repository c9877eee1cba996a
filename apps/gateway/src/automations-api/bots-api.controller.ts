import { BOT_REQUEST_TYPES, BotBody, readBotDefinition } from '@cms/contracts';
import { acceptedReading } from '@cms/http';
import { Body, Controller, Delete, Get, Inject, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { Caller } from '../auth/principal.decorator';
import type { Principal } from '../auth/principal';
import { PublicRoute } from '../auth/public-route.decorator';
import { IdAllocatorRepository } from '../ids/id-allocator.repository';
import { PathId } from '../ids/path-id.decorator';
import { MESSAGING_RULES } from '../messaging-api/messaging-api';
import { Documented, one, page } from '../openapi/documented.decorator';
import { AutomationsApi } from './automations-api';

const REFUSALS =
  'Refused with 422 and a pointer under `/data/attributes/`: a missing `name`, `mode` or `trigger_type`; an attribute a bot does not have; a flow bot without `flow_definition/steps` (1 to 50), an AI bot without `ai_instructions`; a `keyword` or `event` bot without `trigger_value` (an event name for `event`); a `schedule` bot without `settings/schedule_cron` or `target_group_id`; an `event` or `schedule` bot without `settings/channel_id`; a cron expression that does not parse as five fields (`settings/schedule_cron`); an unknown time zone (`settings/schedule_timezone`); a flow step without an `id` or with the `id` of an earlier step, whose `type` is not `message`, `question`, `branch`, `tag` or `end`, or with a field its type does not have (`flow_definition/steps/<i>/<field>`); a `next`, `default` or case `next` naming no step of the flow; a `validate` or `matches` whose pattern does not compile; an audience (`target_group_id`), channel (`settings/channel_id`), template (`flow_definition/steps/<i>/template_id`) or tag (`flow_definition/steps/<i>/tag_id`) that names nothing in the workspace.';

/** Bots (extensions §12, "Bots"): decided and read by the automations service. */
@Controller('api/v1')
export class BotsApiController {
  constructor(
    @Inject(AutomationsApi) private readonly api: AutomationsApi,
    @Inject(IdAllocatorRepository) private readonly ids: IdAllocatorRepository,
  ) {}

  @Documented({
    tag: 'Bots',
    summary: 'Create a bot',
    description: `Requires \`name\`, \`mode\` (\`ai\` or \`flow\`) and \`trigger_type\` (\`keyword\`, \`any_message\`, \`event\` or \`schedule\`); \`enabled\` defaults to true, and \`settings.schedule_timezone\` to UTC when \`settings.schedule_cron\` is set. ${REFUSALS}`,
    answers: { 201: { description: 'The bot.', schema: one('Bot') } },
  })
  @Post('bots')
  @PublicRoute(MESSAGING_RULES.create)
  async create(
    @Caller() caller: Principal,
    @Body() body: BotBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const definition = acceptedReading(readBotDefinition(body ?? {}, 'create'));
    await this.api.botReferencesMustExist(caller, definition);
    const botId = await this.ids.next('bot');
    return this.api.write(reply, caller, BOT_REQUEST_TYPES.create, { ...definition, bot_id: botId } as never);
  }

  @Documented({
    tag: 'Bots',
    summary: 'List bots',
    description: 'Oldest first.',
    list: {
      filters: {
        mode: '`ai` or `flow`.',
        trigger_type: '`keyword`, `any_message`, `event` or `schedule`.',
        enabled: '`true` or `false`.',
      },
    },
    answers: { 200: { description: 'A page of bots.', schema: page('Bot') } },
  })
  @Get('bots')
  @PublicRoute(MESSAGING_RULES.read)
  list(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, 'bots', request);
  }

  @Documented({
    tag: 'Bots',
    summary: 'Get a bot',
    answers: { 200: { description: 'The bot.', schema: one('Bot') } },
  })
  @Get('bots/:id')
  @PublicRoute(MESSAGING_RULES.read)
  get(
    @Caller() caller: Principal,
    @PathId('id', 'Bot') botId: number,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, `bots/${botId}`, request);
  }

  @Documented({
    tag: 'Bots',
    summary: 'Update a bot',
    description: `Requires \`name\`, \`mode\` and \`trigger_type\`; the attributes not sent keep their values, and the bot as patched must pass the rules of a create (a rule it breaks → 422 at the attribute, whether sent or kept). ${REFUSALS}`,
    answers: { 200: { description: 'The bot.', schema: one('Bot') } },
  })
  @Patch('bots/:id')
  @PublicRoute(MESSAGING_RULES.update)
  async update(
    @Caller() caller: Principal,
    @PathId('id', 'Bot') botId: number,
    @Body() body: BotBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const changes = acceptedReading(readBotDefinition(body ?? {}, 'update'));
    await this.api.botReferencesMustExist(caller, changes);
    return this.api.write(reply, caller, BOT_REQUEST_TYPES.update, {
      bot_id: botId,
      changes: changes as unknown as Record<string, unknown>,
    });
  }

  @Documented({
    tag: 'Bots',
    summary: 'Delete a bot',
    description:
      'Its active conversations end `completed` with `end_reason: "bot_deleted"`; every conversation of the bot stays readable at `GET /api/v1/bot-conversations/{id}`.',
    answers: { 204: { description: 'Deleted.' } },
  })
  @Delete('bots/:id')
  @PublicRoute(MESSAGING_RULES.delete)
  remove(
    @Caller() caller: Principal,
    @PathId('id', 'Bot') botId: number,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.write(reply, caller, BOT_REQUEST_TYPES.delete, { bot_id: botId });
  }

  @Documented({
    tag: 'Bots',
    summary: "List a bot's conversations",
    description: 'Newest first.',
    list: {
      filters: {
        status: '`active`, `completed`, `expired` or `failed`.',
        contact_id: 'A contact id.',
      },
    },
    answers: { 200: { description: 'A page of conversations.', schema: page('BotConversation') } },
  })
  @Get('bots/:id/conversations')
  @PublicRoute(MESSAGING_RULES.read)
  conversations(
    @Caller() caller: Principal,
    @PathId('id', 'Bot') botId: number,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, `bots/${botId}/conversations`, request);
  }

  @Documented({
    tag: 'Bots',
    summary: 'Get a bot conversation',
    answers: { 200: { description: 'The conversation.', schema: one('BotConversation') } },
  })
  @Get('bot-conversations/:id')
  @PublicRoute(MESSAGING_RULES.read)
  conversation(
    @Caller() caller: Principal,
    @PathId('id', 'Bot conversation') conversationId: number,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, `bot-conversations/${conversationId}`, request);
  }
}
