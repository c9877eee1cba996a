import fastifyMultipart, { type Multipart } from '@fastify/multipart';
import { MAX_IMPORT_FILE_BYTES } from '@cms/contracts';
import {
  acceptStreamedBody,
  JsonApiException,
  jsonApiErrorObject,
  StreamedBody,
  type JsonApiErrorObject,
} from '@cms/http';
import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiBody, ApiConsumes } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { Caller } from '../auth/principal.decorator';
import type { Principal } from '../auth/principal';
import { PublicRoute, type PublicRouteRule } from '../auth/public-route.decorator';
import { Documented, one } from '../openapi/documented.decorator';
import { UpstreamProxy, type UpstreamAnswer } from '../proxy/upstream.proxy';
import { SEGMENTS } from './segments-api';
import { FILE_FIELD, FILE_POINTER, formError, UploadFileBody } from './upload-form';

const MULTIPART = 'multipart/form-data';

/** A POST that creates: the create permission, on plans with API access (extensions §3). */
const UPLOAD_RULE = {
  permission: 'create',
  bucket: 'api',
  feature: 'api',
} as const satisfies PublicRouteRule;

/** A client that sends nothing of its file for this long, while the service waits for it → 408. */
const UPLOAD_IDLE_TIMEOUT_MS = 30_000;

/**
 * What one form may hold: its file (checked to the byte as it streams, by UploadFileBody), and a few
 * small fields and other parts besides, which are read past; past these limits → 413.
 */
const FORM_LIMITS = {
  fileSize: MAX_IMPORT_FILE_BYTES + 1,
  files: 10,
  fields: 20,
  fieldSize: 64 * 1024,
  parts: 30,
  headerPairs: 100,
};

/**
 * Lets the upload route take `multipart/form-data`, parsed by @fastify/multipart as it arrives (never
 * buffered); every other route keeps answering it 415. A part named `file` is the file whether or not
 * the client gave it a file name (`curl -F file=<people.csv` does not).
 */
export function acceptImportUploads(app: NestFastifyApplication): void {
  void app.register(fastifyMultipart, {
    limits: FORM_LIMITS,
    throwFileSizeLimit: false,
    isPartAFile: (fieldName, _contentType, fileName) => fieldName === FILE_FIELD || fileName !== undefined,
  });
  acceptStreamedBody(app, MULTIPART, { parserRegistered: true });
}

/**
 * Stops parsing the form and reads what is left of the request to nowhere, so its client, still
 * sending, hears the answer on a connection that stays usable (as Fastify does with a JSON body over
 * its limit).
 */
function discardRest(request: FastifyRequest): void {
  request.raw.unpipe();
  request.raw.resume();
}

const NO_FILE: JsonApiErrorObject = jsonApiErrorObject(
  422,
  `The form has no part named ${FILE_FIELD}; send the CSV file in it.`,
  { source: { pointer: FILE_POINTER } },
);

/**
 * `POST /api/v1/audience-import/preview` (extensions §11): the first step of an import. The CSV file
 * streams from the client's form straight to the segments service, which parses and stores it as it
 * arrives and answers the preview; the gateway never holds more of it than a few chunks.
 */
@Controller('api/v1/audience-import')
export class AudienceImportUploadController {
  constructor(@Inject(UpstreamProxy) private readonly proxy: UpstreamProxy) {}

  @Post('preview')
  @PublicRoute(UPLOAD_RULE)
  @StreamedBody(MULTIPART)
  @Documented({
    tag: 'Imports',
    summary: 'Upload a CSV file to import: answers its columns, first rows and row count',
    description:
      'multipart/form-data with the file in the part `file` (with or without a file name; other parts are read past): UTF-8 (a byte order mark is fine), comma, semicolon or tab separated (told from the header row), a header row naming every column once, at most 50 MiB and 1,000,000 data rows. Short rows are completed with empty cells; a value past the last column is refused. The file streams through to the segments service as it arrives. `path` names the upload for `POST /api/v1/audience-import/process` for 24 hours, in this workspace only. A refused file stores nothing.',
    answers: {
      201: { description: 'Stored; the preview.', schema: one('ImportUpload') },
      400: { description: 'The body is not well-formed multipart/form-data.' },
      408: { description: 'Nothing of the file arrived for 30 seconds.' },
      413: {
        description:
          'The file is larger than 50 MiB (pointer `/data/attributes/file`; nothing is stored), or the form has more than 30 parts, 10 files, 20 fields or a field over 64 KiB.',
      },
      415: { description: 'The body is not multipart/form-data.' },
      422: {
        description:
          'No part named `file`, or a file the rules refuse (not UTF-8, U+0000, no or a bad header row, a value past the last column, a row over 1 MiB, more than 1,000,000 rows, an unclosed quote); pointer `/data/attributes/file`.',
      },
      429: {
        description:
          'Too many requests for the key; or the workspace has 2 uploads in progress, or holds 250 MiB of uploads made in the last 24 hours, or the service takes as many uploads as it can at once; Retry-After says when to send the file again. Pointer `/data/attributes/file`.',
      },
    },
  })
  @ApiConsumes(MULTIPART)
  @ApiBody({
    schema: {
      type: 'object',
      required: [FILE_FIELD],
      properties: { [FILE_FIELD]: { type: 'string', format: 'binary', description: 'The CSV file.' } },
    },
  })
  async preview(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<unknown> {
    try {
      const answer = await this.forwardFile(request, caller.workspaceId);
      void reply.status(answer.status);
      return answer.body;
    } finally {
      discardRest(request);
    }
  }

  /** The first part named `file`, streamed to the segments service; other parts are read past. */
  private async forwardFile(request: FastifyRequest, workspaceId: number): Promise<UpstreamAnswer> {
    const parts = request.parts();
    for (;;) {
      let next: IteratorResult<Multipart>;
      try {
        next = await parts.next();
      } catch (error) {
        throw formError(error);
      }
      if (next.done === true) throw new JsonApiException(422, [NO_FILE]);
      const part = next.value;
      if (part.type !== 'file') continue;
      if (part.fieldname !== FILE_FIELD) {
        part.file.resume();
        continue;
      }
      return this.proxy.postStream(
        SEGMENTS,
        'audience-import/uploads',
        new UploadFileBody(part.file, { maxBytes: MAX_IMPORT_FILE_BYTES, idleMs: UPLOAD_IDLE_TIMEOUT_MS }),
        'text/csv',
        workspaceId,
      );
    }
  }
}
