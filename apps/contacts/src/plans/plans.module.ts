import { Module } from '@nestjs/common';

import { ApplyPlanLimitHandler } from './apply-plan-limit/apply-plan-limit.handler';
import { PlanRecordsConsumer } from './plan-records.consumer';

@Module({
  controllers: [PlanRecordsConsumer],
  providers: [ApplyPlanLimitHandler],
  exports: [ApplyPlanLimitHandler],
})
export class PlansModule {}
