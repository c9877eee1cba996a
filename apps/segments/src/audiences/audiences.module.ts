import { LOGGER } from '@cms/service-kit';
import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';

import { SEGMENTS_CONFIG, type SegmentsConfig } from '../config';
import { IndexWarmer } from '../views/index-warmer';
import { WorkspaceViews } from '../views/workspace-views';
import { AudienceEvaluator } from './audience-evaluation';
import { AudienceMembersController } from './read-audiences/audience-members.controller';
import { AudiencesController } from './read-audiences/audiences.controller';
import { PreviewContacts } from './read-audiences/preview-contacts';
import { SnapshotAudienceConsumer } from './snapshot-audience/snapshot-audience.consumer';
import { SnapshotAudienceHandler } from './snapshot-audience/snapshot-audience.handler';
import { WriteAudiencesHandler } from './write-audiences/write-audiences.handler';

@Module({
  controllers: [AudiencesController, AudienceMembersController, SnapshotAudienceConsumer],
  providers: [
    WriteAudiencesHandler,
    SnapshotAudienceHandler,
    PreviewContacts,
    {
      provide: WorkspaceViews,
      inject: [SEGMENTS_CONFIG, LOGGER, DataSource],
      useFactory: (config: SegmentsConfig, logger: Logger, dataSource: DataSource) =>
        new WorkspaceViews({ dataSource, logger, maxContacts: config.indexMaxContacts }),
    },
    {
      provide: IndexWarmer,
      inject: [SEGMENTS_CONFIG, LOGGER, DataSource, WorkspaceViews],
      useFactory: (config: SegmentsConfig, logger: Logger, dataSource: DataSource, views: WorkspaceViews) =>
        new IndexWarmer({
          dataSource,
          views,
          maxContacts: config.indexMaxContacts,
          logger: logger.child({ component: 'index-warmer' }),
        }),
    },
    {
      provide: AudienceEvaluator,
      inject: [WorkspaceViews],
      useFactory: (views: WorkspaceViews) => new AudienceEvaluator(views),
    },
  ],
  exports: [WriteAudiencesHandler, WorkspaceViews, AudienceEvaluator, IndexWarmer],
})
export class AudiencesModule {}
