import { OutboxRelay } from '@cms/kafka';
import { LOGGER } from '@cms/service-kit';
import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';

import { SEGMENTS_CONFIG, type SegmentsConfig } from '../config';
import { ImportRowsDecidedConsumer } from './apply-import-rows/import-rows-decided.consumer';
import { ImportRowsApplier } from './apply-import-rows/import-rows.applier';
import { ImportWorker } from './emit-chunks/import.worker';
import { FailImportConsumer } from './fail-import/fail-import.consumer';
import { FailImportHandler } from './fail-import/fail-import.handler';
import { ProcessImportHandler } from './process-import/process-import.handler';
import { ImportJobsController } from './read-import-jobs/import-jobs.controller';

/**
 * Imports (extensions §11): the process request's decision, the worker that sends a job's rows to the
 * contacts service (started by the kit in the live service only), the contacts service's decisions
 * applied to the jobs, and the jobs' reads.
 */
@Module({
  controllers: [ImportJobsController, ImportRowsDecidedConsumer, FailImportConsumer],
  providers: [
    ProcessImportHandler,
    FailImportHandler,
    ImportRowsApplier,
    {
      provide: ImportWorker,
      inject: [SEGMENTS_CONFIG, LOGGER, DataSource, OutboxRelay],
      useFactory: (config: SegmentsConfig, logger: Logger, dataSource: DataSource, relay: OutboxRelay) =>
        new ImportWorker({
          dataSource,
          databaseUrl: config.databaseUrl,
          schema: config.databaseSchema,
          requestsTopic: config.topics.requests,
          ...config.importWorker,
          logger: logger.child({ component: 'import-worker' }),
          onOutboxWritten: () => relay.kick(),
        }),
    },
  ],
  exports: [ProcessImportHandler, ImportRowsApplier, ImportWorker],
})
export class ImportsModule {}
