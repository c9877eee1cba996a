import { finished, Transform, type Readable, type TransformCallback } from 'node:stream';

import { JsonApiException, jsonApiErrorObject } from '@cms/http';

import { RequestBodyError } from '../proxy/upstream.proxy';

/** The form part that holds the CSV file (extensions §11). */
export const FILE_FIELD = 'file';

/** Where a refusal of the file points. */
export const FILE_POINTER = '/data/attributes/file';

/** A refusal of the file, pointing at it. */
export function fileError(status: number, detail: string): JsonApiException {
  return new JsonApiException(status, [
    jsonApiErrorObject(status, detail, { source: { pointer: FILE_POINTER } }),
  ]);
}

/** An error of the form's parsing (busboy's, or @fastify/multipart's limits) as the client reads it. */
export function formError(error: unknown): JsonApiException {
  if (error instanceof JsonApiException) return error;
  const statusCode = (error as { statusCode?: unknown } | null)?.statusCode;
  const message = error instanceof Error ? error.message : String(error);
  if (statusCode === 413) {
    return JsonApiException.payloadTooLarge(
      `The form has more parts than an upload takes (${message}); send the file alone, in the part named ${FILE_FIELD}.`,
    );
  }
  return JsonApiException.badRequest(`The multipart/form-data body could not be read (${message}).`);
}

/**
 * The file part on its way to the segments service: counted as it passes (at most `maxBytes` → 413),
 * and watched for a client that sent nothing for `idleMs` while the service waited for more (→ 408). A
 * failure on the client's side becomes a RequestBodyError carrying the answer the client gets.
 */
export class UploadFileBody extends Transform {
  private seen = 0;
  private idle: NodeJS.Timeout | undefined;
  private done = false;

  constructor(
    file: Readable,
    private readonly limits: { maxBytes: number; idleMs: number },
  ) {
    super();
    // Also when the part failed before it got here (a form cut short fails its part at once).
    finished(file, (error) => {
      if (error) this.destroy(new RequestBodyError(formError(error)));
    });
    file.pipe(this);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    clearTimeout(this.idle);
    this.seen += chunk.length;
    const { maxBytes } = this.limits;
    if (this.seen > maxBytes) {
      callback(
        new RequestBodyError(
          fileError(413, `The file is larger than ${maxBytes} bytes (${maxBytes / (1024 * 1024)} MiB).`),
        ),
      );
      return;
    }
    callback(null, chunk);
  }

  /**
   * More of the file is wanted. Only while the service reads on (it has not paused the body because it
   * is busy with what it has) is it the client that keeps it waiting.
   */
  override _read(size: number): void {
    if (this.readableFlowing === true) this.watch();
    super._read(size);
  }

  override _flush(callback: TransformCallback): void {
    this.stopWatching();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.stopWatching();
    callback(error);
  }

  private watch(): void {
    if (this.done) return;
    clearTimeout(this.idle);
    const { idleMs } = this.limits;
    this.idle = setTimeout(() => {
      this.destroy(
        new RequestBodyError(fileError(408, `Nothing of the file arrived for ${idleMs / 1000} seconds.`)),
      );
    }, idleMs);
    this.idle.unref();
  }

  private stopWatching(): void {
    this.done = true;
    clearTimeout(this.idle);
  }
}
