import { Module } from '@nestjs/common';

import { RunsModule } from '../runs/runs.module';
import { TemplateUsesController } from './read-workflows/template-uses.controller';
import { WorkflowsController } from './read-workflows/workflows.controller';
import { WriteWorkflowsHandler } from './write-workflows/write-workflows.handler';

@Module({
  imports: [RunsModule],
  controllers: [WorkflowsController, TemplateUsesController],
  providers: [WriteWorkflowsHandler],
  exports: [WriteWorkflowsHandler],
})
export class WorkflowsModule {}
