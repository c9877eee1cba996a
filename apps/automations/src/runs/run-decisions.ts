import {
  CONTACT_REQUEST_TYPES,
  deterministicId,
  MESSAGING_REQUEST_TYPES,
  RUN_FACT_TYPES,
  TAG_REQUEST_TYPES,
  type AutomationEventRecordedV1,
  type AutomationMessageRecordedV1,
  type AutomationTimerFiredV1,
  type ContactSnapshotV1,
  type OutcomeRecordedV1,
  type WorkflowDefinition,
} from '@cms/contracts';
import type { Answer, Decision } from '@cms/kafka';
import { Inject, Injectable } from '@nestjs/common';

import { ConversationDecisions } from '../bots/conversation-decisions';

import type { CriteriaContact } from '../engine/criteria';
import {
  advance,
  branchesReadEvents,
  readsRunContact,
  readsRunMessages,
  startRun,
  type Advance,
  type Happening,
  type RunContext,
  type RunEffect,
  type RunEvent,
  type RunStart,
  type RunWorkflow,
} from '../engine/run-engine';
import { startDecision, triggerReadsEvents } from '../engine/start-decision';
import { OutcomeEntity, type WorkflowRunEntity } from './run.entity';
import { runState, type RunBook } from './run-book';

/** Where the record that moves runs sits: its partition numbers new runs; below the replay horizon no timer is set. */
export interface RunRecordPlace {
  partition: number;
  replaying: boolean;
}

/** Nobody waits for a run input: the answer only closes the decision. */
const NOTED: Answer = { status: 202 };

function criteriaContact(snapshot: ContactSnapshotV1): CriteriaContact {
  return {
    name: snapshot.name ?? null,
    phone: snapshot.phone ?? null,
    email: snapshot.email ?? null,
    external_id: snapshot.external_id ?? null,
    source: snapshot.source ?? null,
    data: snapshot.data,
    created_at: snapshot.created_at,
    updated_at: snapshot.updated_at,
    tag_ids: snapshot.tag_ids,
    marketing_consent: snapshot.marketing_consent,
    channels: snapshot.channels,
  };
}

/** A contact the service never saw (a timer of a contact no snapshot reached): nothing holds of it. */
function unknownContact(at: string): CriteriaContact {
  return {
    name: null,
    phone: null,
    email: null,
    external_id: null,
    source: null,
    data: {},
    created_at: at,
    updated_at: at,
    tag_ids: [],
    marketing_consent: {},
    channels: {},
  };
}

/**
 * Moves runs by one record of the requests topic, in the decision's transaction: the engine decides,
 * this carries out what it decided (rows, timers, the requests to messaging and contacts, outcomes).
 */
class RunMover {
  private events: Map<string, string[]> | undefined;

  constructor(
    private readonly store: RunBook,
    private readonly decision: Decision<unknown>,
    private readonly place: RunRecordPlace,
    private readonly contactId: number,
    private readonly contact: CriteriaContact,
    /** The contact as outcomes show it (the goal event's). */
    private readonly snapshot: ContactSnapshotV1 | null,
  ) {}

  async start(workflow: RunWorkflow, start: RunStart): Promise<void> {
    const context = await this.contextOf(workflow, null, false);
    await this.carryOut(startRun(workflow, start, context), workflow);
  }

  async move(row: WorkflowRunEntity, happening: Happening): Promise<void> {
    const workflow = await this.store.workflowOf(row.workflowId, row.version);
    if (workflow === null) return;
    const state = runState(row);
    const context = await this.contextOf(workflow, row.id, false);
    const moved = advance(state, workflow, happening, context);
    if (moved.state === state) return;
    await this.carryOut(moved, workflow);
  }

  /**
   * What the trigger filter and branches read: the contact, its events (loaded once, and only when a
   * criterion reads them), the run's messages (for branches and the goal's credited message).
   */
  async contextOf(
    workflow: RunWorkflow,
    runId: number | null,
    triggerReadsEvents: boolean,
  ): Promise<RunContext> {
    if (this.events === undefined && (triggerReadsEvents || branchesReadEvents(workflow))) {
      this.events = await this.store.eventsOf(this.contactId);
    }
    const events = this.events;
    return {
      contact: this.contact,
      eventsNamed: (name) => events?.get(name) ?? [],
      messages:
        runId !== null && readsRunMessages(workflow.definition) ? await this.store.messagesOf(runId) : [],
    };
  }

  /** The run as the engine left it, then its effects in order. */
  private async carryOut({ state, effects }: Advance, workflow: RunWorkflow): Promise<void> {
    this.store.saveRun(state, this.decision.workspaceId);
    for (const effect of effects) await this.effect(effect, state.id, workflow);
  }

  private async effect(effect: RunEffect, runId: number, workflow: RunWorkflow): Promise<void> {
    const { decision } = this;
    switch (effect.type) {
      case 'send_message': {
        await this.store.messageMade(runId, effect.step, effect.message_id, decision.at);
        const { event, waited_event } = effect.template_scope;
        decision.requestWithId(
          effect.request_id,
          MESSAGING_REQUEST_TYPES.messageSend,
          String(effect.contact_id),
          {
            contact_id: effect.contact_id,
            route: effect.route,
            purpose: effect.purpose,
            variables: effect.variables,
            workflow: effect.workflow,
            event,
            waited_event,
          },
        );
        return;
      }
      case 'update_contact': {
        const subject = String(effect.contact_id);
        if (Object.keys(effect.data).length > 0) {
          decision.requestWithId(effect.request_id, CONTACT_REQUEST_TYPES.update, subject, {
            contact_id: effect.contact_id,
            data: effect.data,
          });
        }
        if (effect.add_tags.length > 0) {
          decision.requestWithId(
            deterministicId(effect.request_id, 'add_tags'),
            TAG_REQUEST_TYPES.attach,
            subject,
            {
              contact_id: effect.contact_id,
              tag_ids: effect.add_tags,
            },
          );
        }
        if (effect.remove_tags.length > 0) {
          decision.requestWithId(
            deterministicId(effect.request_id, 'remove_tags'),
            TAG_REQUEST_TYPES.detach,
            subject,
            { contact_id: effect.contact_id, tag_ids: effect.remove_tags },
          );
        }
        return;
      }
      case 'set_timer':
        // Below the replay horizon the timer was set by an earlier life, and fired or is still set.
        if (this.place.replaying) return;
        this.store.setTimer({
          id: effect.timer_id,
          workspaceId: decision.workspaceId,
          runId,
          contactId: this.contactId,
          dueAt: effect.due_at,
          readsContact: readsRunContact(workflow),
        });
        return;
      case 'cancel_timer':
        this.store.cancelTimer(effect.timer_id);
        return;
      case 'record_outcome': {
        const snapshot = this.snapshot;
        const data: OutcomeRecordedV1 = {
          id: effect.outcome_id,
          goal: effect.goal.event,
          workflow: effect.workflow,
          credited_message_id: effect.credited_message_id,
          channel: effect.channel,
          contact: {
            id: effect.contact_id,
            external_id: snapshot?.external_id ?? null,
            name: snapshot?.name ?? null,
            phone: snapshot?.phone ?? null,
            email: snapshot?.email ?? null,
          },
          event: effect.event,
          occurred_at: effect.occurred_at,
          created_at: effect.created_at,
        };
        this.store.recordOutcome(
          Object.assign(new OutcomeEntity(), {
            id: effect.outcome_id,
            workspaceId: decision.workspaceId,
            workflowId: workflow.id,
            contactId: effect.contact_id,
            data,
            createdAt: new Date(effect.created_at),
          }),
        );
        decision.fact(RUN_FACT_TYPES.outcomeRecorded, String(effect.outcome_id), data);
        return;
      }
    }
  }
}

/**
 * The run inputs (extensions §12, Starting, Steps at run time, Goals and outcomes), decided in the
 * order of the requests topic with the workflow changes they meet: what a rebuild reads again, in the
 * same order, so it makes the same runs, messages and outcomes.
 */
@Injectable()
export class RunDecisions {
  constructor(@Inject(ConversationDecisions) private readonly conversations: ConversationDecisions) {}

  /** A recorded event ends the runs whose goal it is, moves those waiting for it, then starts runs. */
  async event(
    decision: Decision<AutomationEventRecordedV1>,
    place: RunRecordPlace,
    runs: RunBook,
  ): Promise<Answer> {
    const { event, contact } = decision.data;
    const contactId = contact.contact_id;
    const mover = new RunMover(runs, decision, place, contactId, criteriaContact(contact), contact);
    await runs.eventRecorded({ id: event.id, contactId, name: event.name, occurredAt: event.occurred_at });
    const runEvent: RunEvent = { id: event.id, name: event.name, data: event.data };
    for (const row of await runs.goingRunsOf(decision.workspaceId, contactId)) {
      if (row.triggerEventId === event.id) continue;
      await mover.move(row, {
        kind: 'event_recorded',
        event: runEvent,
        occurred_at: event.occurred_at,
        at: decision.at,
      });
    }
    for (const workflow of await runs.triggeredBy(decision.workspaceId, event.name)) {
      const contactRuns = await runs.runsOf(contactId, workflow.id);
      // The same input read twice starts nothing the second time.
      if (contactRuns.some((run) => run.triggerEventId === event.id)) continue;
      const definition = {
        enabled: workflow.enabled,
        trigger: workflow.trigger as unknown as WorkflowDefinition['trigger'],
        re_entry: workflow.reEntry as WorkflowDefinition['re_entry'],
      };
      const version = await runs.workflowOf(workflow.id, workflow.version);
      if (version === null) continue;
      const context = await mover.contextOf(version, null, triggerReadsEvents(definition.trigger));
      const starting = startDecision(definition, runEvent, contactRuns, context, Date.parse(decision.at));
      if (!starting.start) continue;
      for (const id of starting.replace) {
        const replaced = await runs.runInWorkspace(decision.workspaceId, id);
        if (replaced) await mover.move(replaced, { kind: 'replaced', at: decision.at });
      }
      const runId = await runs.nextRunId(place.partition);
      await mover.start(version, { run_id: runId, contact_id: contactId, event: runEvent, at: decision.at });
    }
    // Bots started by the event (extensions §12, `event` trigger).
    await this.conversations.event(decision, place, await runs.botsOf(decision.workspaceId));
    return NOTED;
  }

  /** A timer that fell due moves its run, if the run still waits for it. */
  async timer(
    decision: Decision<AutomationTimerFiredV1>,
    place: RunRecordPlace,
    runs: RunBook,
  ): Promise<Answer> {
    const { timer_id: timerId, run_id: runId, contact } = decision.data;
    runs.cancelTimer(timerId);
    const row = await runs.runInWorkspace(decision.workspaceId, runId);
    if (!row) return NOTED;
    const mover = new RunMover(
      runs,
      decision,
      place,
      row.contactId,
      contact ? criteriaContact(contact) : unknownContact(decision.at),
      contact ?? null,
    );
    await mover.move(row, { kind: 'timer_due', timer_id: timerId, at: decision.at });
    return NOTED;
  }

  /** What became of a run's message: branches and the credited message read it. */
  async message(decision: Decision<AutomationMessageRecordedV1>, runs: RunBook): Promise<Answer> {
    const { data } = decision;
    await runs.messageReported({
      messageId: data.message_id,
      runId: data.run_id,
      step: data.step,
      ...(data.status === undefined ? {} : { status: data.status }),
      ...(data.clicked === undefined ? {} : { clicked: data.clicked }),
      channel: data.channel ?? null,
      at: data.at,
    });
    return NOTED;
  }

  /** A deleted workflow's going runs end `exited` (`workflow_deleted`); they stay readable. */
  async workflowDeleted(decision: Decision<unknown>, workflowId: number, runs: RunBook): Promise<void> {
    // Ending a run starts none and sets no timer: the place of the record plays no part.
    const place: RunRecordPlace = { partition: 0, replaying: false };
    for (const row of await runs.goingRunsOfWorkflow(workflowId)) {
      const mover = new RunMover(runs, decision, place, row.contactId, unknownContact(decision.at), null);
      await mover.move(row, { kind: 'workflow_deleted', at: decision.at });
    }
  }
}
