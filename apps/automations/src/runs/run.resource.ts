import type { RunStatus } from '../engine/run-engine';
import type { OutcomeEntity, WorkflowRunEntity } from './run.entity';

/** Every status a run can have, as `filter[status]` takes them. */
export const RUN_STATUSES = [
  'active',
  'waiting',
  'completed',
  'goal_reached',
  'exited',
  'failed',
] as const satisfies readonly RunStatus[];

/** A run as the read API shows it (extensions §12, Runs). */
export function runResource(run: WorkflowRunEntity): Record<string, unknown> {
  return {
    id: run.id,
    workflow_id: run.workflowId,
    version: run.version,
    contact_id: run.contactId,
    status: run.status,
    current_step: run.currentStep,
    trigger_event_id: run.triggerEventId,
    started_at: run.startedAt.toISOString(),
    ended_at: run.endedAt === null ? null : run.endedAt.toISOString(),
    history: run.history,
  };
}

/** An outcome as the read API shows it (extensions §12, Goals and outcomes): its webhook's data, whole. */
export function outcomeResource(outcome: OutcomeEntity): Record<string, unknown> {
  return outcome.data;
}
