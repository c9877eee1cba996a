import type { WorkflowFactV1 } from '@cms/contracts';

import type { WorkflowEntity } from './workflow.entity';

/** The workflow as the read API and the write answers show it (extensions §12). */
export function workflowResource(workflow: WorkflowEntity): Record<string, unknown> {
  return {
    id: workflow.id,
    name: workflow.name,
    enabled: workflow.enabled,
    trigger: workflow.trigger,
    steps: workflow.steps,
    goal: workflow.goal,
    re_entry: workflow.reEntry,
    version: workflow.version,
    created_at: workflow.createdAt.toISOString(),
    updated_at: workflow.updatedAt.toISOString(),
  };
}

/** The data of `workflow.created` and `workflow.updated`: the workflow whole. */
export function workflowFact(workflow: WorkflowEntity, at: string): WorkflowFactV1 {
  return {
    workflow_id: workflow.id,
    name: workflow.name,
    enabled: workflow.enabled,
    version: workflow.version,
    trigger: workflow.trigger,
    steps: workflow.steps,
    goal: workflow.goal,
    re_entry: workflow.reEntry as WorkflowFactV1['re_entry'],
    at,
  };
}
