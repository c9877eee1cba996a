import { OutboxRelay } from '@cms/kafka';
import { LOGGER } from '@cms/service-kit';
import { Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';

import { AUTOMATIONS_CONFIG, type AutomationsConfig } from '../config';
import { OutcomesController, RunsController, WorkflowRunsController } from './read-runs/runs.controller';
import { RunDecisions } from './run-decisions';
import { RunInputsChunk } from './run-inputs.chunk';
import { RunTimerWorker } from './run-timer.worker';

/** Runs: their decisions from the requests topic, the worker that fires their timers, and their reads. */
@Module({
  controllers: [WorkflowRunsController, RunsController, OutcomesController],
  providers: [
    RunDecisions,
    RunInputsChunk,
    {
      provide: RunTimerWorker,
      inject: [AUTOMATIONS_CONFIG, LOGGER, DataSource, OutboxRelay],
      useFactory: (config: AutomationsConfig, logger: Logger, dataSource: DataSource, relay: OutboxRelay) =>
        new RunTimerWorker({
          dataSource,
          requestsTopic: config.topics.requests,
          ...config.timerWorker,
          wakeOn: { databaseUrl: config.databaseUrl, schema: config.databaseSchema },
          logger: logger.child({ component: 'timer-worker' }),
          onOutboxWritten: () => relay.kick(),
        }),
    },
  ],
  exports: [RunDecisions, RunInputsChunk, RunTimerWorker],
})
export class RunsModule {}
