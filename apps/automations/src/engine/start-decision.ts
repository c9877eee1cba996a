import {
  readWorkflowCriteria,
  TRIGGER_CRITERIA_OPTIONS,
  type ReEntry,
  type WorkflowCriteria,
  type WorkflowDefinition,
} from '@cms/contracts';

import { matchesCriteria, readsContactEvents, type CriteriaSubject } from './criteria';
import type { RunEvent, RunStatus } from './run-engine';

/**
 * Whether a recorded event starts a run of a workflow for its contact (extensions §12, "Starting"):
 * the workflow is enabled, the event is its trigger's, the trigger's filter holds for the contact as
 * the event left it and for the event, and `re_entry` allows it given the contact's runs of the
 * workflow as of the event's place in the log. At most one run per workflow and contact is going.
 */

export interface ContactRun {
  id: number;
  status: RunStatus;
}

export type StartDecision =
  | { start: false; reason: 'disabled' | 'other_event' | 'filter' | 're_entry' }
  /** `replace`: the going runs to end `exited` (`replaced`) before the new one starts. */
  | { start: true; replace: number[] };

function going(run: ContactRun): boolean {
  return run.status === 'active' || run.status === 'waiting';
}

/** `after_exit`: none going; `never`: none ever; `always`: yes, the going one replaced. */
export function reEntryDecision(reEntry: ReEntry, contactRuns: readonly ContactRun[]): StartDecision {
  switch (reEntry) {
    case 'after_exit':
      return contactRuns.some(going) ? { start: false, reason: 're_entry' } : { start: true, replace: [] };
    case 'never':
      return contactRuns.length > 0 ? { start: false, reason: 're_entry' } : { start: true, replace: [] };
    case 'always':
      return { start: true, replace: contactRuns.filter(going).map((run) => run.id) };
  }
}

const triggerCriteria = new WeakMap<object, WorkflowCriteria>();

/** The trigger's filter as a criteria tree, read once per trigger object. */
function triggerFilter(trigger: WorkflowDefinition['trigger']): WorkflowCriteria {
  let criteria = triggerCriteria.get(trigger);
  if (criteria === undefined) {
    const reading = readWorkflowCriteria(trigger.filter, '/trigger/filter', TRIGGER_CRITERIA_OPTIONS);
    if (!reading.ok) throw new Error('the trigger filter cannot be read');
    criteria = reading.criteria;
    triggerCriteria.set(trigger, criteria);
  }
  return criteria;
}

/** Whether the trigger's filter reads the contact's events. */
export function triggerReadsEvents(trigger: WorkflowDefinition['trigger']): boolean {
  return readsContactEvents(triggerFilter(trigger));
}

/**
 * `subject` is the contact as the event left it (its `event` is set here from `event`); `now` the
 * time the event was recorded, in epoch ms.
 */
export function startDecision(
  workflow: Pick<WorkflowDefinition, 'enabled' | 'trigger' | 're_entry'>,
  event: RunEvent,
  contactRuns: readonly ContactRun[],
  subject: Omit<CriteriaSubject, 'event' | 'waitedEvent' | 'messages'>,
  now: number,
): StartDecision {
  if (!workflow.enabled) return { start: false, reason: 'disabled' };
  if (event.name !== workflow.trigger.event) return { start: false, reason: 'other_event' };
  const filter = triggerFilter(workflow.trigger);
  if (!matchesCriteria(filter, { ...subject, event: { data: event.data } }, now)) {
    return { start: false, reason: 'filter' };
  }
  return reEntryDecision(workflow.re_entry, contactRuns);
}
