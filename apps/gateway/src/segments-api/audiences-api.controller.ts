import {
  CreateAudienceBody,
  PreviewAudienceBody,
  readFilterCriteria,
  SEGMENTS_REQUEST_TYPES,
  UpdateAudienceBody,
} from '@cms/contracts';
import { JsonApiException } from '@cms/http';
import { Body, Controller, Delete, Get, Inject, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { Caller } from '../auth/principal.decorator';
import type { Principal } from '../auth/principal';
import { PublicRoute } from '../auth/public-route.decorator';
import { IdAllocatorRepository } from '../ids/id-allocator.repository';
import { PathId } from '../ids/path-id.decorator';
import { MESSAGING_RULES } from '../messaging-api/messaging-api';
import { SegmentsApi } from './segments-api';

/** A filter the language cannot read is refused here, before anything enters the log. */
function readableFilter(filter: unknown): void {
  const reading = readFilterCriteria(filter);
  if (!reading.ok) {
    throw JsonApiException.validation(
      reading.problems.map((problem) => ({ detail: problem.detail, source: { pointer: problem.pointer } })),
    );
  }
}

/** Audiences and their preview (extensions §11): decided and evaluated by the segments service. */
@Controller('api/v1')
export class AudiencesApiController {
  constructor(
    @Inject(SegmentsApi) private readonly api: SegmentsApi,
    @Inject(IdAllocatorRepository) private readonly ids: IdAllocatorRepository,
  ) {}

  @Post('audiences')
  @PublicRoute(MESSAGING_RULES.create)
  async create(
    @Caller() caller: Principal,
    @Body() body: CreateAudienceBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    readableFilter(body.filter_criteria);
    await this.api.contactsMustExist(caller, {
      include_contact_ids: body.include_contact_ids,
      exclude_contact_ids: body.exclude_contact_ids,
    });
    const audienceId = await this.ids.next('audience');
    return this.api.writeAudience(
      reply,
      caller,
      SEGMENTS_REQUEST_TYPES.audienceCreate,
      { ...body, audience_id: audienceId },
      audienceId,
    );
  }

  @Get('audiences')
  @PublicRoute(MESSAGING_RULES.read)
  list(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, 'audiences', request);
  }

  @Get('audiences/:id')
  @PublicRoute(MESSAGING_RULES.read)
  get(
    @Caller() caller: Principal,
    @PathId('id', 'Audience') audienceId: number,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, `audiences/${audienceId}`, request);
  }

  @Patch('audiences/:id')
  @PublicRoute(MESSAGING_RULES.update)
  async update(
    @Caller() caller: Principal,
    @PathId('id', 'Audience') audienceId: number,
    @Body() body: UpdateAudienceBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    if (body.filter_criteria !== undefined) readableFilter(body.filter_criteria);
    await this.api.contactsMustExist(caller, {
      include_contact_ids: body.include_contact_ids,
      exclude_contact_ids: body.exclude_contact_ids,
    });
    return this.api.writeAudience(
      reply,
      caller,
      SEGMENTS_REQUEST_TYPES.audienceUpdate,
      { ...body, audience_id: audienceId },
      audienceId,
    );
  }

  @Delete('audiences/:id')
  @PublicRoute(MESSAGING_RULES.delete)
  remove(
    @Caller() caller: Principal,
    @PathId('id', 'Audience') audienceId: number,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.write(reply, caller, SEGMENTS_REQUEST_TYPES.audienceDelete, { audience_id: audienceId });
  }

  /** A read that takes a body (read permission, extensions §3). */
  @Post('audience/preview')
  @PublicRoute(MESSAGING_RULES.read)
  preview(
    @Caller() caller: Principal,
    @Body() body: PreviewAudienceBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    readableFilter(body?.filter_criteria);
    return this.api.readWith(reply, caller, 'audience/preview', body ?? {});
  }
}
