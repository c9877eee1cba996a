import type { SqlWindow } from '@cms/http';
import type { EntityManager, FindOptionsWhere, Repository } from 'typeorm';

import type { RunStatus } from '../engine/run-engine';
import { OutcomeEntity, WorkflowRunEntity } from './run.entity';

/** The list filters of `GET /api/v1/workflows/{id}/runs` (extensions §12, Runs). */
export interface RunListFilter {
  status?: RunStatus;
  contactId?: number;
}

/** The list filters of `GET /api/v1/outcomes` (extensions §12, Goals and outcomes). */
export interface OutcomeListFilter {
  workflowId?: number;
  contactId?: number;
}

/** The reads of runs and outcomes, through one EntityManager. */
export class RunReadsRepository {
  private readonly runs: Repository<WorkflowRunEntity>;
  private readonly outcomes: Repository<OutcomeEntity>;

  constructor(manager: EntityManager) {
    this.runs = manager.getRepository(WorkflowRunEntity);
    this.outcomes = manager.getRepository(OutcomeEntity);
  }

  /** The runs of a workflow of the workspace, newest first. */
  async listRuns(
    workspaceId: number,
    workflowId: number,
    filter: RunListFilter,
    window: SqlWindow,
  ): Promise<{ rows: WorkflowRunEntity[]; total: number }> {
    const where: FindOptionsWhere<WorkflowRunEntity> = { workspaceId, workflowId };
    if (filter.status !== undefined) where.status = filter.status;
    if (filter.contactId !== undefined) where.contactId = filter.contactId;
    const [rows, total] = await this.runs.findAndCount({
      where,
      order: { startedAt: 'DESC', id: 'DESC' },
      skip: window.offset,
      take: window.limit,
    });
    return { rows, total };
  }

  /** The run, when it exists and belongs to the workspace (its workflow deleted or not). */
  findRun(workspaceId: number, id: number): Promise<WorkflowRunEntity | null> {
    return this.runs.findOneBy({ id, workspaceId });
  }

  /** The outcomes of the workspace, newest first. */
  async listOutcomes(
    workspaceId: number,
    filter: OutcomeListFilter,
    window: SqlWindow,
  ): Promise<{ rows: OutcomeEntity[]; total: number }> {
    const where: FindOptionsWhere<OutcomeEntity> = { workspaceId };
    if (filter.workflowId !== undefined) where.workflowId = filter.workflowId;
    if (filter.contactId !== undefined) where.contactId = filter.contactId;
    const [rows, total] = await this.outcomes.findAndCount({
      where,
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: window.offset,
      take: window.limit,
    });
    return { rows, total };
  }

  /** The outcome, when it exists and belongs to the workspace. */
  findOutcome(workspaceId: number, id: number): Promise<OutcomeEntity | null> {
    return this.outcomes.findOneBy({ id, workspaceId });
  }
}
