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
import { MESSAGING_RULES, MessagingApi } from './messaging-api';

/** Templates (extensions §9): Liquid bodies per channel type, parsed and stored by the messaging service. */
@Controller('api/v1/templates')
export class TemplatesApiController {
  constructor(
    @Inject(MessagingApi) private readonly api: MessagingApi,
    @Inject(IdAllocatorRepository) private readonly ids: IdAllocatorRepository,
  ) {}

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

  @Get()
  @PublicRoute(MESSAGING_RULES.read)
  list(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, 'templates', request);
  }

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

  @Delete(':id')
  @PublicRoute(MESSAGING_RULES.delete)
  remove(
    @Caller() caller: Principal,
    @PathId('id', 'Template') templateId: number,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.write(reply, caller, MESSAGING_REQUEST_TYPES.templateDelete, { template_id: templateId });
  }

  /** Renders without sending and records nothing: a read, like the audience preview (read permission). */
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
