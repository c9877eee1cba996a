import { JsonApiException, parseIdentifier, WorkspaceId } from '@cms/http';
import { Controller, Get, Inject, Param } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { WorkflowRepository } from '../workflow.repository';

/**
 * The workflows of the workspace whose `send` steps name a template: the gateway asks before it records
 * the template's delete (extensions §9: a template used by a workflow cannot be deleted).
 */
@Controller('internal/v1/templates')
export class TemplateUsesController {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  @Get(':id/workflows')
  async workflowsUsing(
    @WorkspaceId() workspaceId: number,
    @Param('id') rawId: string,
  ): Promise<{ data: Array<{ id: number; name: string }> }> {
    const id = parseIdentifier(rawId);
    if (id === undefined) throw JsonApiException.notFound(`Template ${rawId} was not found.`);
    const workflows = await new WorkflowRepository(this.dataSource.manager).usingTemplate(workspaceId, id);
    return { data: workflows.map((workflow) => ({ id: workflow.id, name: workflow.name })) };
  }
}
