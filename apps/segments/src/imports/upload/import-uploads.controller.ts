import type { IncomingMessage } from 'node:http';
import { finished } from 'node:stream/promises';

import {
  IMPORT_PATH_PATTERN,
  IMPORT_UPLOAD_TTL_MS,
  MAX_IMPORT_FILE_BYTES,
  MAX_IMPORT_ROWS,
} from '@cms/contracts';
import { JsonApiException, StreamedBody, WorkspaceId } from '@cms/http';
import { Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import type { ImportUploadEntity } from './import-upload.entity';
import { SEGMENTS_CONFIG, type SegmentsConfig } from '../../config';
import { ImportUploadErrorCode, ImportUploadException } from './import-upload.exception';
import { ImportUploadRepository } from './import-upload.repository';
import type { UploadCsvLimits } from './upload-csv';

/** The media type the gateway streams an upload's file in. */
export const UPLOAD_MEDIA_TYPE = 'text/csv';

/** The file rules of extensions §11; a row (header included) may hold at most 1 MiB of text. */
export const UPLOAD_LIMITS: UploadCsvLimits = {
  maxBytes: MAX_IMPORT_FILE_BYTES,
  maxRows: MAX_IMPORT_ROWS,
  maxRowChars: 1024 * 1024,
};

/** The preview of `POST /api/v1/audience-import/preview` (extensions §11). */
function previewOf(upload: ImportUploadEntity): Record<string, unknown> {
  return {
    path: upload.path,
    columns: upload.columns,
    sample_rows: upload.sampleRows,
    row_count: upload.rowCount,
    delimiter: upload.delimiter,
  };
}

/**
 * Reads what is left of a refused upload's body before it is answered, so the gateway, which is still
 * sending it, hears the answer instead of a connection closed under it. A body over the size limit is
 * not read on: that connection is closed after the answer.
 */
async function settleBody(request: IncomingMessage, error: unknown, reply: FastifyReply): Promise<void> {
  if (error instanceof ImportUploadException && error.code === ImportUploadErrorCode.TooLarge) {
    void reply.header('connection', 'close');
    return;
  }
  if (request.readableEnded || request.destroyed) return;
  request.resume();
  // Settles at once for a request its client already broke off (whose `close` came and went).
  await finished(request).catch(() => undefined);
}

/**
 * The uploads of imports, as the gateway calls them in the workspace it authenticated
 * (x-workspace-id): the file arrives as `text/csv`, streamed and never held whole.
 */
@Controller('internal/v1/audience-import/uploads')
export class ImportUploadsController {
  /** Uploads this replica is taking now: each holds a database connection while its file streams in. */
  private inFlight = 0;

  constructor(
    @Inject(ImportUploadRepository) private readonly uploads: ImportUploadRepository,
    @Inject(SEGMENTS_CONFIG) private readonly config: SegmentsConfig,
  ) {}

  /**
   * 201 with the preview; 413 or 422 (pointer `/data/attributes/file`) for a file the rules refuse; 429
   * with Retry-After when uploads already take what they may of the service: this replica's share of
   * its connections, the workspace's uploads in progress, or the workspace's quota of bytes.
   */
  @Post()
  @HttpCode(201)
  @StreamedBody(UPLOAD_MEDIA_TYPE)
  async upload(
    @WorkspaceId() workspaceId: number,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ data: Record<string, unknown> }> {
    const limits = this.config.uploadLimits;
    let refusal: unknown;
    if (this.inFlight >= limits.atOnce) {
      refusal = ImportUploadException.serviceBusy(limits.atOnce);
    } else {
      // Counts while the upload holds its database connection; reading the rest of a refused body does not.
      this.inFlight += 1;
      try {
        const upload = await this.uploads.store(
          workspaceId,
          request.raw,
          UPLOAD_LIMITS,
          IMPORT_UPLOAD_TTL_MS,
          limits,
        );
        return { data: previewOf(upload) };
      } catch (error) {
        refusal = error;
      } finally {
        this.inFlight -= 1;
      }
    }
    await settleBody(request.raw, refusal, reply);
    throw refusal;
  }

  /** What the import step needs of an upload; another workspace's, an expired or unknown one → 404. */
  @Get(':path')
  async one(
    @WorkspaceId() workspaceId: number,
    @Param('path') path: string,
  ): Promise<{ data: Record<string, unknown> }> {
    const upload = IMPORT_PATH_PATTERN.test(path)
      ? await this.uploads.findLive(workspaceId, path, new Date())
      : null;
    if (!upload) throw JsonApiException.notFound(`Upload ${path} was not found or has expired.`);
    return {
      data: {
        path: upload.path,
        columns: upload.columns,
        row_count: upload.rowCount,
        delimiter: upload.delimiter,
        expires_at: upload.expiresAt.toISOString(),
      },
    };
  }
}
