import { PassThrough, Writable } from 'node:stream';

import { JsonApiException } from '@cms/http';

import { RequestBodyError } from '../proxy/upstream.proxy';
import { formError, UploadFileBody } from './upload-form';

/** Where the body goes: reads everything at once, or nothing at all (a service busy storing rows). */
function sink(reading: boolean): { stream: Writable; bytes: () => number } {
  let bytes = 0;
  const stream = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (reading) callback();
    },
  });
  return { stream, bytes: () => bytes };
}

/** The answer the client would get for the body's failure, once it failed. */
function failureOf(body: UploadFileBody): Promise<{ status: number; pointer?: string; detail: string }> {
  return new Promise((resolve) => {
    body.on('error', (error) => {
      expect(error).toBeInstanceOf(RequestBodyError);
      const answer = (error as RequestBodyError).answer as JsonApiException;
      const [first] = answer.errors;
      resolve({ status: answer.getStatus(), detail: first!.detail, pointer: first!.source?.pointer });
    });
  });
}

describe('UploadFileBody', () => {
  it('passes a file up to the limit on unchanged', async () => {
    const file = new PassThrough();
    const body = new UploadFileBody(file, { maxBytes: 10, idleMs: 1000 });
    const chunks: Buffer[] = [];
    body.on('data', (chunk: Buffer) => chunks.push(chunk));
    file.write('12345');
    file.end('67890');
    await new Promise((resolve) => body.on('end', resolve));
    expect(Buffer.concat(chunks).toString()).toBe('1234567890');
  });

  it('fails with 413 at /data/attributes/file on the first byte past the limit, passing none of it', async () => {
    const file = new PassThrough();
    const body = new UploadFileBody(file, { maxBytes: 10, idleMs: 1000 });
    const target = sink(true);
    body.pipe(target.stream);
    const failed = failureOf(body);
    file.write('1234567890');
    file.write('1');
    expect(await failed).toMatchObject({ status: 413, pointer: '/data/attributes/file' });
    expect(target.bytes()).toBe(10);
  });

  it('fails with 408 when the client sends nothing while the service waits for more', async () => {
    const file = new PassThrough();
    const body = new UploadFileBody(file, { maxBytes: 100, idleMs: 50 });
    body.pipe(sink(true).stream);
    const failed = failureOf(body);
    file.write('phone\n');
    expect(await failed).toMatchObject({
      status: 408,
      detail: 'Nothing of the file arrived for 0.05 seconds.',
    });
  });

  it('never blames the client while the service is the one not reading', async () => {
    const file = new PassThrough();
    const body = new UploadFileBody(file, { maxBytes: 1024 * 1024, idleMs: 50 });
    const errors: unknown[] = [];
    body.on('error', (error) => errors.push(error));
    body.pipe(sink(false).stream);
    // More than the streams between hold: the service stops reading, and the client waits for it.
    file.write(Buffer.alloc(256 * 1024));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(errors).toEqual([]);
    body.destroy();
  });

  it('fails with the form’s own error when the part fails, also before it was handed over', async () => {
    const file = new PassThrough();
    file.destroy(new Error('Part terminated early due to unexpected end of multipart data'));
    const body = new UploadFileBody(file, { maxBytes: 100, idleMs: 1000 });
    expect(await failureOf(body)).toMatchObject({
      status: 400,
      detail: expect.stringContaining('unexpected end of multipart data'),
    });
  });
});

describe('formError', () => {
  it('answers a limit of the form 413 and any other parsing failure 400', () => {
    const limit = Object.assign(new Error('reach parts limit'), { statusCode: 413 });
    expect(formError(limit).getStatus()).toBe(413);
    expect(formError(new Error('Multipart: Boundary not found')).getStatus()).toBe(400);
    const own = JsonApiException.notFound('x');
    expect(formError(own)).toBe(own);
  });
});
