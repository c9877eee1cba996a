import {
  CreateTemplateBody,
  MESSAGING_REQUEST_TYPES,
  RenderTemplateBody,
  UpdateTemplateBody,
} from '@cms/contracts';
import { Body, Controller, Delete, Get, Inject, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { Caller } from '../auth/principal.decorator';
import type { Principal } from '../auth/principal';
import { PublicRoute } from '../auth/public-route.decorator';
import { IdAllocatorRepository } from '../ids/id-allocator.repository';
import { PathId } from '../ids/path-id.decorator';
import { Documented, one, page } from '../openapi/documented.decorator';
import { AutomationsApi } from '../automations-api/automations-api';
import { BroadcastsApi } from '../broadcasts-api/broadcasts-api';
import { refuseUses } from '../proxy/referrers';
import { MESSAGING_RULES, MessagingApi } from './messaging-api';

/** Templates (extensions §9): Liquid bodies per channel type, parsed and stored by the messaging service. */
@Controller('api/v1/templates')
export class TemplatesApiController {
  constructor(
    @Inject(MessagingApi) private readonly api: MessagingApi,
    @Inject(IdAllocatorRepository) private readonly ids: IdAllocatorRepository,
    @Inject(AutomationsApi) private readonly automations: AutomationsApi,
    @Inject(BroadcastsApi) private readonly broadcasts: BroadcastsApi,
  ) {}

  @Documented({
    tag: 'Templates',
    summary: 'Create a template',
    description:
      'Bodies are Liquid (`{{ contact.name }}`, `{{ contact.data.plan }}`, `{{ event.data.total }}`, `{{ vars.code }}`, filters such as `default`, `upcase`, `date`). `name` is unique per workspace and channel type; `subject` and `html` are for email only, `provider_template` for whatsapp only; `body` is required unless `provider_template` is given. A template that does not parse → 422 at the field with its line and column.',
    answers: { 201: { description: 'The template.', schema: one('Template') } },
  })
  @Post()
  @PublicRoute(MESSAGING_RULES.create)
  async create(
    @Caller() caller: Principal,
    @Body() body: CreateTemplateBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const templateId = await this.ids.next('template');
    return this.api.write(reply, caller, MESSAGING_REQUEST_TYPES.templateCreate, {
      ...body,
      template_id: templateId,
    });
  }

  @Documented({
    tag: 'Templates',
    summary: 'List templates',
    description: 'Oldest first.',
    list: { filters: { name: 'The exact name.', channel: 'A channel type.' } },
    answers: { 200: { description: 'A page of templates.', schema: page('Template') } },
  })
  @Get()
  @PublicRoute(MESSAGING_RULES.read)
  list(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, 'templates', request);
  }

  @Documented({
    tag: 'Templates',
    summary: 'Get a template',
    answers: { 200: { description: 'The template.', schema: one('Template') } },
  })
  @Get(':id')
  @PublicRoute(MESSAGING_RULES.read)
  get(
    @Caller() caller: Principal,
    @PathId('id', 'Template') templateId: number,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, `templates/${templateId}`, request);
  }

  @Documented({
    tag: 'Templates',
    summary: 'Update a template',
    description:
      'Only the fields sent change; null clears `body`, `subject`, `html` and `provider_template`. The change is judged by the template it makes (→ 422 at the field).',
    answers: { 200: { description: 'The template as changed.', schema: one('Template') } },
  })
  @Patch(':id')
  @PublicRoute(MESSAGING_RULES.update)
  update(
    @Caller() caller: Principal,
    @PathId('id', 'Template') templateId: number,
    @Body() body: UpdateTemplateBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.write(reply, caller, MESSAGING_REQUEST_TYPES.templateUpdate, {
      ...body,
      template_id: templateId,
    });
  }

  @Documented({
    tag: 'Templates',
    summary: 'Delete a template',
    description:
      'Refused with 422 while a workflow has a `send` step whose route names the template, a notification sends it, or a bot has a flow `message` step that sends it; the errors name them, one error for the workflows, one for the notifications and one for the bots.',
    answers: { 204: { description: 'Deleted.' } },
  })
  @Delete(':id')
  @PublicRoute(MESSAGING_RULES.delete)
  async remove(
    @Caller() caller: Principal,
    @PathId('id', 'Template') templateId: number,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    refuseUses(
      422,
      await Promise.all([
        this.automations.templateUse(caller, templateId),
        this.broadcasts.templateUse(caller, templateId),
        this.automations.templateBotUse(caller, templateId),
      ]),
    );
    return this.api.write(reply, caller, MESSAGING_REQUEST_TYPES.templateDelete, { template_id: templateId });
  }

  /** Renders without sending and records nothing: a read, like the audience preview (read permission). */
  @Documented({
    tag: 'Templates',
    summary: 'Render a template without sending',
    description:
      'Renders the template for `contact_id` (optional), `variables` (as `vars`) and `event`, as a send would, and records nothing (the `read` permission). A missing variable without a `default` filter → 422 whose detail names it; an unknown contact → 422 at `/data/attributes/contact_id`.',
    answers: {
      200: { description: 'The rendered subject, body and html.', schema: one('RenderedTemplate') },
    },
  })
  @Post(':id/render')
  @PublicRoute(MESSAGING_RULES.read)
  render(
    @Caller() caller: Principal,
    @PathId('id', 'Template') templateId: number,
    @Body() body: RenderTemplateBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.readWith(reply, caller, `templates/${templateId}/render`, body ?? {});
  }
}
