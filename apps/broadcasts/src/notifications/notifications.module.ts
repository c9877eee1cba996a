import { workerProvider } from '@cms/service-kit';
import { Module } from '@nestjs/common';

import { BROADCASTS_CONFIG, type BroadcastsConfig } from '../config';
import { SendDecisions } from '../sends/send-decisions';
import { NotificationSendsController, SendsController } from '../sends/read-sends/sends.controller';
import { FanoutWorker } from '../workers/fanout.worker';
import { ScheduleTimerWorker } from '../workers/schedule-timer.worker';
import {
  NotificationsController,
  NotificationUsesController,
} from './read-notifications/notifications.controller';
import { WriteNotificationsHandler } from './write-notifications/write-notifications.handler';

/** Notifications and their sends: decisions, reads, and the workers that start and make them. */
@Module({
  controllers: [
    NotificationsController,
    NotificationUsesController,
    NotificationSendsController,
    SendsController,
  ],
  providers: [
    WriteNotificationsHandler,
    SendDecisions,
    workerProvider(
      FanoutWorker,
      BROADCASTS_CONFIG,
      'fanout-worker',
      (config: BroadcastsConfig, settings) =>
        new FanoutWorker({ ...settings, requestsTopic: config.topics.requests, ...config.fanout }),
    ),
    workerProvider(
      ScheduleTimerWorker,
      BROADCASTS_CONFIG,
      'schedule-worker',
      (config: BroadcastsConfig, settings) =>
        new ScheduleTimerWorker({
          ...settings,
          requestsTopic: config.topics.requests,
          ...config.scheduleWorker,
        }),
    ),
  ],
  exports: [WriteNotificationsHandler, SendDecisions, FanoutWorker, ScheduleTimerWorker],
})
export class NotificationsModule {}
