import { PolledWorker } from '@cms/service-kit';
import type { Logger } from 'pino';

import type { ImportUploadRepository } from './import-upload.repository';

/** Rows of an expired upload removed per transaction: short enough not to hold locks for long. */
export const EXPIRED_ROWS_PER_TURN = 50_000;

export interface ExpiredUploadsWorkerOptions {
  uploads: ImportUploadRepository;
  pollMs: number;
  logger: Logger;
}

/**
 * Removes uploads 24 hours after they were made (extensions §11: a path is valid for 24 hours), rows
 * first, a batch per turn, until none is left; then looks again every `pollMs`. Every replica runs one:
 * each takes a different upload (SKIP LOCKED).
 */
export class ExpiredUploadsWorker extends PolledWorker {
  constructor(private readonly options: ExpiredUploadsWorkerOptions) {
    super({ concurrency: 1, pollMs: options.pollMs, logger: options.logger });
  }

  protected turn(): Promise<boolean> {
    return this.options.uploads.removeExpired(EXPIRED_ROWS_PER_TURN);
  }
}
