import {
  CreateAudienceBody,
  PreviewAudienceBody,
  readFilterCriteria,
  SEGMENTS_REQUEST_TYPES,
  UpdateAudienceBody,
} from '@cms/contracts';
import { refusedAtPointers } from '@cms/http';
import { Body, Controller, Delete, Get, Inject, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { Caller } from '../auth/principal.decorator';
import type { Principal } from '../auth/principal';
import { PublicRoute } from '../auth/public-route.decorator';
import { AutomationsApi } from '../automations-api/automations-api';
import { BroadcastsApi } from '../broadcasts-api/broadcasts-api';
import { IdAllocatorRepository } from '../ids/id-allocator.repository';
import { PathId } from '../ids/path-id.decorator';
import { MESSAGING_RULES } from '../messaging-api/messaging-api';
import { Documented, one, page } from '../openapi/documented.decorator';
import { refuseUses } from '../proxy/referrers';
import { SegmentsApi } from './segments-api';

/** A filter the language cannot read is refused here, before anything enters the log. */
function readableFilter(filter: unknown): void {
  const reading = readFilterCriteria(filter);
  if (!reading.ok) throw refusedAtPointers(reading.problems);
}

/** Audiences and their preview (extensions §11): decided and evaluated by the segments service. */
@Controller('api/v1')
export class AudiencesApiController {
  constructor(
    @Inject(SegmentsApi) private readonly api: SegmentsApi,
    @Inject(IdAllocatorRepository) private readonly ids: IdAllocatorRepository,
    @Inject(BroadcastsApi) private readonly broadcasts: BroadcastsApi,
    @Inject(AutomationsApi) private readonly automations: AutomationsApi,
  ) {}

  @Documented({
    tag: 'Audiences',
    summary: 'Create an audience',
    description:
      'An audience made of `filter_criteria` (extensions §11) and lists of contact ids. A filter the language cannot read is refused before anything is recorded (422 with a pointer such as `/data/attributes/filter_criteria/0/operator`); an `audience` condition naming an audience the workspace does not have, or a chain of such conditions leading back to this audience, → 422 at `/data/attributes/filter_criteria`; a contact id that names no contact of the workspace → 422 at its place in its list; a name the workspace has → 422 at `/data/attributes/name`. Answers the audience as a read shows it right after the write, with its size.',
    answers: { 201: { description: 'Created.', schema: one('AudienceWritten') } },
  })
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

  @Documented({
    tag: 'Audiences',
    summary: 'List audiences',
    description: 'Oldest first; each with its size as of the answer.',
    answers: { 200: { description: 'A page of audiences.', schema: page('Audience') } },
    list: {
      filters: {
        name: 'Only the audience of this exact name.',
        source: '`filters` or `import`.',
      },
    },
  })
  @Get('audiences')
  @PublicRoute(MESSAGING_RULES.read)
  list(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, 'audiences', request);
  }

  @Documented({
    tag: 'Audiences',
    summary: 'Read an audience',
    description: 'With its exact size as of the answer (relative dates relative to that moment).',
    answers: { 200: { description: 'The audience.', schema: one('Audience') } },
  })
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

  @Documented({
    tag: 'Audiences',
    summary: 'Change an audience',
    description:
      'Only the fields sent change; `null` empties a list or the filter. The rules of the create apply; an import audience takes no `filter_criteria` (422). Answers the audience as a read shows it right after the write, with its size.',
    answers: { 200: { description: 'Changed.', schema: one('AudienceWritten') } },
  })
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

  @Documented({
    tag: 'Audiences',
    summary: 'Delete an audience',
    answers: {
      204: { description: 'Deleted.' },
      409: {
        description:
          'Another audience\'s filter names this one (`Audience 4 is used by the filter of audience 7`), a notification sends to it (`Audience 4 is used by notification 3 ("Spring sale")`), or a bot\'s `target_group_id` names it (`Audience 4 is used by bot 2 ("Welcome")`), the notifications and the bots each in an error of their own; change or delete those first.',
      },
    },
  })
  @Delete('audiences/:id')
  @PublicRoute(MESSAGING_RULES.delete)
  async remove(
    @Caller() caller: Principal,
    @PathId('id', 'Audience') audienceId: number,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    refuseUses(
      409,
      await Promise.all([
        this.broadcasts.audienceUse(caller, audienceId),
        this.automations.audienceBotUse(caller, audienceId),
      ]),
    );
    return this.api.write(reply, caller, SEGMENTS_REQUEST_TYPES.audienceDelete, { audience_id: audienceId });
  }

  /** A read that takes a body (read permission, extensions §3). */
  @Documented({
    tag: 'Audiences',
    summary: 'Preview an audience definition',
    description:
      'A read (read permission; nothing is recorded): the exact number of contacts a definition matches now, the first `limit` of them by id (1–100, default 10), and how many of them every channel type could reach with marketing. The body meets the rules of an audience (the same 422s); every field is optional, `{}` matches every contact. Counts what the segments service’s view of the contacts holds: a contact answered a moment ago is in it within a second.',
    answers: { 200: { description: 'The preview.', schema: one('AudiencePreview') } },
  })
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
