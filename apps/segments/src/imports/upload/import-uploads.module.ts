import { LOGGER } from '@cms/service-kit';
import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';

import { SEGMENTS_CONFIG, type SegmentsConfig } from '../../config';
import { ExpiredUploadsWorker } from './expired-uploads.worker';
import { ImportUploadRepository } from './import-upload.repository';
import { ImportUploadsController } from './import-uploads.controller';

/** Uploads of files to import: stored as they stream in, read by the import step, removed once expired. */
@Module({
  controllers: [ImportUploadsController],
  providers: [
    {
      provide: ImportUploadRepository,
      inject: [DataSource],
      useFactory: (dataSource: DataSource) => new ImportUploadRepository(dataSource),
    },
    {
      provide: ExpiredUploadsWorker,
      inject: [SEGMENTS_CONFIG, LOGGER, ImportUploadRepository],
      useFactory: (config: SegmentsConfig, logger: Logger, uploads: ImportUploadRepository) =>
        new ExpiredUploadsWorker({
          uploads,
          pollMs: config.uploadCleanupPollMs,
          logger: logger.child({ component: 'expired-uploads-worker' }),
        }),
    },
  ],
  exports: [ImportUploadRepository, ExpiredUploadsWorker],
})
export class ImportUploadsModule {}
