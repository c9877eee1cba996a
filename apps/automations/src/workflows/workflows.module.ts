import { Module } from '@nestjs/common';

import { WorkflowsController } from './read-workflows/workflows.controller';
import { WriteWorkflowsHandler } from './write-workflows/write-workflows.handler';

@Module({
  controllers: [WorkflowsController],
  providers: [WriteWorkflowsHandler],
  exports: [WriteWorkflowsHandler],
})
export class WorkflowsModule {}
