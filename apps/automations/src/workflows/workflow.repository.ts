import type { SqlWindow } from '@cms/http';
import type { EntityManager, FindOptionsWhere, Repository } from 'typeorm';

import { WorkflowEntity, WorkflowVersionEntity } from './workflow.entity';

/** The list filters of `GET /api/v1/workflows` (extensions §12). */
export interface WorkflowListFilter {
  enabled?: boolean;
  name?: string;
}

/** The workflows and their versions, through one EntityManager: the decision's transaction, or a read's. */
export class WorkflowRepository {
  private readonly workflows: Repository<WorkflowEntity>;
  private readonly versions: Repository<WorkflowVersionEntity>;

  constructor(manager: EntityManager) {
    this.workflows = manager.getRepository(WorkflowEntity);
    this.versions = manager.getRepository(WorkflowVersionEntity);
  }

  /** The workflow, when it exists and belongs to the workspace. */
  findInWorkspace(workspaceId: number, id: number): Promise<WorkflowEntity | null> {
    return this.workflows.findOneBy({ id, workspaceId });
  }

  /**
   * In any workspace, deleted ones included: every workflow has its version 1 from its creation on,
   * and versions stay after a delete (the gateway mints ids once).
   */
  exists(id: number): Promise<boolean> {
    return this.versions.existsBy({ workflowId: id });
  }

  /** Stores the workflow and, when its version is new, that version. */
  async save(workflow: WorkflowEntity, newVersion: boolean): Promise<void> {
    await this.workflows.save(workflow);
    if (!newVersion) return;
    await this.versions.save(
      Object.assign(new WorkflowVersionEntity(), {
        workflowId: workflow.id,
        version: workflow.version,
        workspaceId: workflow.workspaceId,
        name: workflow.name,
        trigger: workflow.trigger,
        steps: workflow.steps,
        goal: workflow.goal,
        reEntry: workflow.reEntry,
        createdAt: workflow.updatedAt,
      }),
    );
  }

  /** The workspace's workflows (not deleted) with a `send` step whose route names the template, oldest first. */
  usingTemplate(workspaceId: number, templateId: number): Promise<WorkflowEntity[]> {
    return this.workflows
      .createQueryBuilder('workflow')
      .where('workflow.workspace_id = :workspaceId', { workspaceId })
      .andWhere('workflow.steps @> :uses::jsonb', {
        uses: JSON.stringify([{ route: [{ template_id: templateId }] }]),
      })
      .orderBy('workflow.id')
      .getMany();
  }

  async remove(workflow: WorkflowEntity): Promise<void> {
    await this.workflows.delete({ id: workflow.id });
  }

  async list(
    workspaceId: number,
    filter: WorkflowListFilter,
    window: SqlWindow,
  ): Promise<{ rows: WorkflowEntity[]; total: number }> {
    const where: FindOptionsWhere<WorkflowEntity> = { workspaceId };
    if (filter.enabled !== undefined) where.enabled = filter.enabled;
    if (filter.name !== undefined) where.name = filter.name;
    const [rows, total] = await this.workflows.findAndCount({
      where,
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: window.offset,
      take: window.limit,
    });
    return { rows, total };
  }
}
