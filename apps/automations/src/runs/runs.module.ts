import { workerProvider } from '@cms/service-kit';
import { Module } from '@nestjs/common';

import { BotsModule } from '../bots/bots.module';
import { AUTOMATIONS_CONFIG, type AutomationsConfig } from '../config';
import { OutcomesController, RunsController, WorkflowRunsController } from './read-runs/runs.controller';
import { RunDecisions } from './run-decisions';
import { RunInputsChunk } from './run-inputs.chunk';
import { RunTimerWorker } from './run-timer.worker';

/** Runs: their decisions from the requests topic, the worker that fires their timers, and their reads. */
@Module({
  imports: [BotsModule],
  controllers: [WorkflowRunsController, RunsController, OutcomesController],
  providers: [
    RunDecisions,
    RunInputsChunk,
    workerProvider(
      RunTimerWorker,
      AUTOMATIONS_CONFIG,
      'timer-worker',
      (config: AutomationsConfig, settings) =>
        new RunTimerWorker({ ...settings, requestsTopic: config.topics.requests, ...config.timerWorker }),
    ),
  ],
  exports: [RunDecisions, RunInputsChunk, RunTimerWorker],
})
export class RunsModule {}
