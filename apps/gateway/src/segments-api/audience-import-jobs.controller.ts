import {
  ID_BLOCK_SIZE,
  IMPORT_PATH_PATTERN,
  MAX_IMPORT_ROWS,
  ProcessImportBody,
  SEGMENTS_REQUEST_TYPES,
} from '@cms/contracts';
import { JsonApiException, type ValidationIssue } from '@cms/http';
import { Body, Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { Caller } from '../auth/principal.decorator';
import type { Principal } from '../auth/principal';
import { PublicRoute, type PublicRouteRule } from '../auth/public-route.decorator';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { IdAllocatorRepository } from '../ids/id-allocator.repository';
import { PathId } from '../ids/path-id.decorator';
import { Documented, one } from '../openapi/documented.decorator';
import { UpstreamProxy } from '../proxy/upstream.proxy';
import { SEGMENTS, SegmentsApi } from './segments-api';

/** Imports are API paths: pro and above (extensions §3), each by its permission. */
const IMPORT_RULES = {
  read: { permission: 'read', bucket: 'api', feature: 'api' },
  create: { permission: 'create', bucket: 'api', feature: 'api' },
} as const satisfies Record<string, PublicRouteRule>;

const PATH_POINTER = '/data/attributes/path';
const MAPPING_KEYS = ['phone', 'email', 'name'] as const;

/** An upload as the segments service describes it (the preview step's `path`, in the caller's workspace). */
interface Upload {
  columns: string[];
  row_count: number;
  expires_at: string;
}

function isUpload(value: unknown): value is Upload {
  const upload = value as Partial<Upload> | null;
  return (
    typeof upload === 'object' &&
    upload !== null &&
    Array.isArray(upload.columns) &&
    upload.columns.every((column) => typeof column === 'string') &&
    Number.isSafeInteger(upload.row_count) &&
    upload.row_count! >= 0 &&
    upload.row_count! <= MAX_IMPORT_ROWS &&
    typeof upload.expires_at === 'string' &&
    !Number.isNaN(Date.parse(upload.expires_at))
  );
}

function unknownPath(path: string): ValidationIssue {
  return {
    detail: `No upload ${JSON.stringify(path)} can be processed in this workspace: it is unknown or expired.`,
    source: { pointer: PATH_POINTER },
  };
}

/**
 * Imports (extensions §11): a process request is checked here against its upload (the path, the mapped
 * columns), given its job, audience and the contact ids its rows may create, and decided by the
 * segments service, which queues the job (202). Jobs are read from the segments service.
 */
@Controller('api/v1/audience-import')
export class AudienceImportJobsController {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(SegmentsApi) private readonly api: SegmentsApi,
    @Inject(UpstreamProxy) private readonly proxy: UpstreamProxy,
    @Inject(IdAllocatorRepository) private readonly ids: IdAllocatorRepository,
  ) {}

  @Documented({
    tag: 'Imports',
    summary: 'Process an upload into an import audience',
    description:
      'Queues a job that imports the rows of an upload (`path`, from `POST /api/v1/audience-import/preview`) into a new audience named `audience_name` (`source: import`). Each row is matched like an event’s contact, by the mapped phone then email column; a matched contact is added to the audience and otherwise left as it is; an unmatched row creates a contact when `create_new_entities` is true and is skipped (`no_match`) otherwise. A `path` of another workspace, unknown or expired → 422 at `/data/attributes/path`; a mapping naming neither `phone` nor `email` → 422 at `/data/attributes/mapping`; a mapped column the file does not have → 422 at `/data/attributes/mapping/<key>`; an `audience_name` the workspace has → 422 at `/data/attributes/audience_name`. The same path processed again is a job into an audience of its own, and creates nothing twice.',
    answers: {
      202: { description: 'Queued; read the job for its progress.', schema: one('ImportJobQueued') },
    },
  })
  @Post('process')
  @PublicRoute(IMPORT_RULES.create)
  async process(
    @Caller() caller: Principal,
    @Body() body: ProcessImportBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    const mapping = {
      phone: body.mapping.phone ?? null,
      email: body.mapping.email ?? null,
      name: body.mapping.name ?? null,
    };
    const issues: ValidationIssue[] = [];
    if (mapping.phone === null && mapping.email === null) {
      issues.push({
        detail: 'The mapping must name the column of the phone or of the email: rows are matched by them.',
        source: { pointer: '/data/attributes/mapping' },
      });
    }
    if (!IMPORT_PATH_PATTERN.test(body.path)) {
      // Not a path the preview step hands out; it must not reach the segments service's URL either.
      issues.push(unknownPath(body.path));
    }
    if (issues.length > 0) throw JsonApiException.validation(issues);

    const upload = await this.upload(caller, body.path);
    const missing = MAPPING_KEYS.filter((key) => {
      const column = mapping[key];
      return column !== null && !upload.columns.includes(column);
    });
    if (missing.length > 0) {
      throw JsonApiException.validation(
        missing.map((key) => ({
          detail: `The file has no column ${JSON.stringify(mapping[key])}.`,
          source: { pointer: `/data/attributes/mapping/${key}` },
        })),
      );
    }

    const [jobId, audienceId, idBlocks] = await Promise.all([
      this.ids.next('import_job'),
      this.ids.next('audience'),
      this.ids.blocks('contact', Math.ceil(upload.row_count / ID_BLOCK_SIZE)),
    ]);
    return this.api.write(reply, caller, SEGMENTS_REQUEST_TYPES.importProcess, {
      path: body.path,
      mapping,
      audience_name: body.audience_name,
      create_new_entities: body.create_new_entities ?? false,
      job_id: jobId,
      audience_id: audienceId,
      contact_limit: this.config.plans[caller.plan].storedContacts,
      id_blocks: idBlocks,
      rows_total: upload.row_count,
      upload_expires_at: upload.expires_at,
    });
  }

  @Documented({
    tag: 'Imports',
    summary: 'Read an import job',
    description:
      'Its status (`queued`, `running`, `completed`, `failed`) and progress while it runs: rows processed, contacts created and matched, rows skipped and the first 100 of them with the reason. A job fails when its upload expired before all its rows were sent, or a chunk of its rows can never be decided; the chunks sent before still count.',
    answers: { 200: { description: 'The job.', schema: one('ImportJob') } },
  })
  @Get('jobs/:id')
  @PublicRoute(IMPORT_RULES.read)
  job(
    @Caller() caller: Principal,
    @PathId('id', 'Import job') jobId: number,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    return this.api.read(reply, caller, `audience-import/jobs/${jobId}`, request);
  }

  /** The upload in the caller's workspace; one the segments service does not know there is 422 at `path`. */
  private async upload(caller: Principal, path: string): Promise<Upload> {
    let body: unknown;
    try {
      ({ body } = await this.proxy.get(SEGMENTS, `audience-import/uploads/${path}`, '', caller.workspaceId));
    } catch (error) {
      if (error instanceof JsonApiException && error.getStatus() === 404) {
        throw JsonApiException.validation([unknownPath(path)]);
      }
      throw error;
    }
    const upload = (body as { data?: unknown } | undefined)?.data;
    if (!isUpload(upload))
      throw new Error(`the segments service described upload ${path} in an unknown shape`);
    return upload;
  }
}
