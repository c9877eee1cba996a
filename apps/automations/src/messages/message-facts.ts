import {
  LINK_FACT_TYPES,
  MESSAGING_FACT_TYPES,
  MESSAGING_RECORD_TYPES,
  RUN_INPUT_TYPES,
  selectRecordTypes,
  type AutomationMessageRecordedV1,
  type DecodedRecord,
  type LinkClickedV1,
  type MessageFactV1,
} from '@cms/contracts';
import { recordContext, type ChunkHandler, type ChunkRecord, type RecordContext } from '@cms/kafka';
import { Controller, Inject, Injectable, Module } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { In, type EntityManager } from 'typeorm';

import { AUTOMATIONS_CONFIG, type AutomationsConfig } from '../config';
import { AudienceMembers } from '../bots/audience-members';
import { forwardInbound } from '../bots/inbound-forwarder';
import { ENDED_STATUSES, readsRunMessages, type RunWorkflow } from '../engine/run-engine';
import { WorkflowRunEntity } from '../runs/run.entity';
import { emitRunInput } from '../runs/run-inputs';
import { WorkflowVersionEntity } from '../workflows/workflow.entity';
import { MESSAGING_TRANSPORT } from '../transports';

/**
 * The facts of cms.messaging.v1 that tell a run about its messages (every stage of one, and human
 * clicks), and the inbound messages bots answer.
 */
export const MESSAGE_FACT_TYPES = [
  MESSAGING_FACT_TYPES.messageQueued,
  MESSAGING_FACT_TYPES.messageSent,
  MESSAGING_FACT_TYPES.messageDelivered,
  MESSAGING_FACT_TYPES.messageRead,
  MESSAGING_FACT_TYPES.messageFailed,
  MESSAGING_FACT_TYPES.messageSuppressed,
  LINK_FACT_TYPES.linkClicked,
  MESSAGING_FACT_TYPES.messageReceived,
] as const;

const SELECTION = selectRecordTypes(MESSAGE_FACT_TYPES, MESSAGING_RECORD_TYPES);

/** Their definitions, for the service's record types. */
export const MESSAGE_FACT_RECORD_TYPES = SELECTION.definitions;

/** The run input a message fact becomes, or null for a message no workflow made. */
export function messageInput(record: DecodedRecord): AutomationMessageRecordedV1 | null {
  if (record.type === LINK_FACT_TYPES.linkClicked) {
    const click = record.data as LinkClickedV1;
    if (click.workflow === null || click.workflow === undefined) return null;
    return {
      message_id: click.message_id,
      run_id: click.workflow.run_id,
      step: click.workflow.step,
      clicked: true,
      channel: click.channel,
      at: record.time,
    };
  }
  const message = record.data as MessageFactV1;
  if (message.direction !== 'outbound' || message.workflow === null || message.workflow === undefined)
    return null;
  return {
    message_id: message.id,
    run_id: message.workflow.run_id,
    step: message.workflow.step,
    status: message.status,
    channel: message.channel,
    at: record.time,
  };
}

/** Workflow versions never change: whether one reads its runs' messages is kept once known. */
const VERSIONS_KEPT = 2_000;

/**
 * Which runs still read their messages (readsRunMessages): only those get a message's facts as run
 * inputs. A run that
 * ended, or whose workflow version has neither, never reads them, so its facts would only cost a record
 * on the requests topic and a transaction each (three or more a message). A run not found (a rebuild
 * whose runs are behind its message facts) gets them, as before: a skipped input is a record the log
 * never had, so a rebuild skips it too.
 */
@Injectable()
export class RunMessageReaders {
  private readonly versions = new Map<string, boolean>();

  async readersAmong(manager: EntityManager, runIds: readonly number[]): Promise<Set<number>> {
    const readers = new Set(runIds);
    if (runIds.length === 0) return readers;
    const runs = await manager.getRepository(WorkflowRunEntity).find({
      select: { id: true, workflowId: true, version: true, status: true },
      where: { id: In([...readers]) },
    });
    const unknown = runs.filter((run) => !this.versions.has(versionKey(run)));
    if (unknown.length > 0) await this.learn(manager, unknown);
    for (const run of runs) {
      if (ENDED_STATUSES.includes(run.status) || this.versions.get(versionKey(run)) === false)
        readers.delete(run.id);
    }
    return readers;
  }

  private async learn(manager: EntityManager, runs: readonly WorkflowRunEntity[]): Promise<void> {
    const stored = await manager.getRepository(WorkflowVersionEntity).find({
      where: runs.map(({ workflowId, version }) => ({ workflowId, version })),
    });
    for (const version of stored) {
      const reads = readsRunMessages({
        steps: version.steps,
        goal: version.goal,
      } as unknown as RunWorkflow['definition']);
      if (this.versions.size >= VERSIONS_KEPT) this.versions.delete(this.versions.keys().next().value!);
      this.versions.set(versionKey(version), reads);
    }
  }
}

function versionKey(row: { workflowId: number; version: number }): string {
  return `${row.workflowId}:${row.version}`;
}

/**
 * Forwards what of `records` moves runs or bots: inbound messages to the bots, a message's facts to its
 * run when the run reads them. Below the replay horizon nothing is emitted, so nothing is asked.
 */
async function forward(
  records: readonly { record: DecodedRecord; context: RecordContext }[],
  manager: EntityManager,
  requestsTopic: string,
  audiences: AudienceMembers,
  readers: RunMessageReaders,
): Promise<void> {
  const inputs = records.map(({ record, context }) =>
    record.type === MESSAGING_FACT_TYPES.messageReceived || context.replaying ? null : messageInput(record),
  );
  const runIds = inputs.flatMap((input) => (input === null ? [] : [input.run_id]));
  const reading = await readers.readersAmong(manager, runIds);
  for (const [index, { record, context }] of records.entries()) {
    if (record.type === MESSAGING_FACT_TYPES.messageReceived) {
      await forwardInbound(record, context, requestsTopic, audiences);
      continue;
    }
    const input = inputs[index];
    if (input === null || input === undefined || !reading.has(input.run_id)) continue;
    emitRunInput(context, requestsTopic, record, RUN_INPUT_TYPES.message, input.message_id, input);
  }
}

/** A lone message fact. */
@Controller()
export class MessageFactsConsumer {
  private readonly audiences: AudienceMembers;

  constructor(
    @Inject(AUTOMATIONS_CONFIG) private readonly config: AutomationsConfig,
    @Inject(RunMessageReaders) private readonly readers: RunMessageReaders,
  ) {
    this.audiences = new AudienceMembers(config.bots.segmentsUrl);
  }

  @EventPattern(MESSAGE_FACT_TYPES, MESSAGING_TRANSPORT)
  forward(@Payload() record: DecodedRecord, @Ctx() rawContext: unknown): Promise<void> {
    const context = recordContext(rawContext);
    return forward(
      [{ record, context }],
      context.manager,
      this.config.topics.requests,
      this.audiences,
      this.readers,
    );
  }
}

/** Message facts come by the thousand a second and most are of no run: a run of them is one transaction. */
@Injectable()
export class MessageFactsChunk implements ChunkHandler {
  private readonly audiences: AudienceMembers;

  constructor(
    @Inject(AUTOMATIONS_CONFIG) private readonly config: AutomationsConfig,
    @Inject(RunMessageReaders) private readonly readers: RunMessageReaders,
  ) {
    this.audiences = new AudienceMembers(config.bots.segmentsUrl);
  }

  takes(record: DecodedRecord): boolean {
    return SELECTION.takes(record);
  }

  apply(records: ChunkRecord[], manager: EntityManager): Promise<void> {
    return forward(records, manager, this.config.topics.requests, this.audiences, this.readers);
  }
}

@Module({
  controllers: [MessageFactsConsumer],
  providers: [RunMessageReaders, MessageFactsChunk],
  exports: [MessageFactsChunk],
})
export class MessageFactsModule {}
