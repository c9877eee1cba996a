import {
  AUTOMATIONS_FACT_TYPES,
  readWorkflowDefinition,
  type WorkflowCreateRequestedV1,
  type WorkflowDeleteRequestedV1,
  type WorkflowUpdateRequestedV1,
} from '@cms/contracts';
import type { Answer, Decision } from '@cms/kafka';
import { Inject, Injectable } from '@nestjs/common';
import { isDeepStrictEqual } from 'node:util';

import { AutomationsException } from '../../decisions/automations.exception';
import { RunBook } from '../../runs/run-book';
import { RunDecisions } from '../../runs/run-decisions';
import { WorkflowEntity } from '../workflow.entity';
import { WorkflowRepository } from '../workflow.repository';
import { workflowFact, workflowResource } from '../workflow.resource';

/** What a change of makes a new version (extensions §12): the name and `enabled` do not. */
const VERSIONED = ['trigger', 'steps', 'goal', 'reEntry'] as const;

/** The definition read again as the gateway read it: a record that would not pass is refused whole. */
function definitionOf(body: Record<string, unknown>, mode: 'create' | 'update'): Record<string, unknown> {
  const reading = readWorkflowDefinition(body, mode);
  if (!reading.ok) throw AutomationsException.invalidWorkflow(reading.problems);
  return reading.value as unknown as Record<string, unknown>;
}

/**
 * Workflow writes (extensions §12), decided in log order from the requests topic alone: tag and
 * template references were checked by the gateway with their owners before the request was
 * recorded, so a rebuild decides each write as live did.
 */
@Injectable()
export class WriteWorkflowsHandler {
  constructor(@Inject(RunDecisions) private readonly runs: RunDecisions) {}

  async create(decision: Decision<WorkflowCreateRequestedV1>): Promise<Answer> {
    const { workflow_id: id, ...body } = decision.data;
    const workflows = new WorkflowRepository(decision.manager);
    if (await workflows.exists(id)) throw AutomationsException.idInUse(id);
    const definition = definitionOf(body, 'create');
    const workflow = Object.assign(new WorkflowEntity(), {
      id,
      workspaceId: decision.workspaceId,
      name: definition['name'],
      enabled: definition['enabled'] ?? true,
      version: 1,
      trigger: definition['trigger'],
      steps: definition['steps'],
      goal: definition['goal'] ?? null,
      reEntry: definition['re_entry'] ?? 'after_exit',
      createdAt: decision.atDate,
      updatedAt: decision.atDate,
    });
    await workflows.save(workflow, true);
    decision.fact(AUTOMATIONS_FACT_TYPES.workflowCreated, String(id), workflowFact(workflow, decision.at));
    return { status: 201, resource: workflowResource(workflow) };
  }

  /** Only the attributes sent change; a change of trigger, steps, goal or re_entry is a new version. */
  async update(decision: Decision<WorkflowUpdateRequestedV1>): Promise<Answer> {
    const { workflow_id: id, changes } = decision.data;
    const workflows = new WorkflowRepository(decision.manager);
    const workflow = await workflows.findInWorkspace(decision.workspaceId, id);
    if (!workflow) throw AutomationsException.workflowNotFound(id);
    const definition = definitionOf(changes, 'update');
    const next: Partial<WorkflowEntity> = {};
    if (definition['name'] !== undefined) next.name = definition['name'] as string;
    if (definition['enabled'] !== undefined) next.enabled = definition['enabled'] as boolean;
    if (definition['trigger'] !== undefined)
      next.trigger = definition['trigger'] as WorkflowEntity['trigger'];
    if (definition['steps'] !== undefined) next.steps = definition['steps'] as WorkflowEntity['steps'];
    if (definition['goal'] !== undefined) next.goal = definition['goal'] as WorkflowEntity['goal'];
    if (definition['re_entry'] !== undefined) next.reEntry = definition['re_entry'] as string;
    const newVersion = VERSIONED.some(
      (field) => next[field] !== undefined && !isDeepStrictEqual(next[field], workflow[field]),
    );
    Object.assign(workflow, next, {
      version: newVersion ? workflow.version + 1 : workflow.version,
      updatedAt: decision.atDate,
    });
    await workflows.save(workflow, newVersion);
    decision.fact(AUTOMATIONS_FACT_TYPES.workflowUpdated, String(id), workflowFact(workflow, decision.at));
    return { status: 200, resource: workflowResource(workflow) };
  }

  async delete(decision: Decision<WorkflowDeleteRequestedV1>): Promise<Answer> {
    const { workflow_id: id } = decision.data;
    const workflows = new WorkflowRepository(decision.manager);
    const workflow = await workflows.findInWorkspace(decision.workspaceId, id);
    if (!workflow) throw AutomationsException.workflowNotFound(id);
    await workflows.remove(workflow);
    const runs = new RunBook(decision.manager);
    await this.runs.workflowDeleted(decision, id, runs);
    await runs.flush();
    decision.fact(AUTOMATIONS_FACT_TYPES.workflowDeleted, String(id), { workflow_id: id, at: decision.at });
    return { status: 204 };
  }
}
