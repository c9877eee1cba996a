import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Min,
  ValidateNested,
} from 'class-validator';

import { ContactSnapshotV1 } from '../contacts/contact.records';
import type { RecordTypeDefinition } from '../registry/record-type-registry';

/**
 * What moves workflow runs (extensions §12), appended by the automations service itself to the
 * requests topic (key = workspace id) through its outbox, so that its runs consumer reads them in one
 * order with the workflow changes they meet, live and on every replay: a recorded event with the
 * contact as it left it, a timer that fell due with the contact as it was then, and what became of a
 * workflow's message. Nobody waits for them.
 */
export const RUN_INPUT_TYPES = {
  /** From event.recorded on cms.contacts.v1. */
  event: 'automation.event.recorded',
  /** From the timer worker: a run's wait, an until_event's timeout or a goal's `within` ended. */
  timer: 'automation.timer.fired',
  /** From the message.* and link.clicked facts of a workflow's message on cms.messaging.v1. */
  message: 'automation.message.recorded',
} as const;

/** Facts of the automations service about runs (cms.automations.v1, key = workspace id). */
export const RUN_FACT_TYPES = {
  /** A run reached its goal; becomes the outcome.recorded webhook. */
  outcomeRecorded: 'outcome.recorded',
} as const;

/** The event of an input, as its contacts fact recorded it. */
export class RunInputEventV1 {
  @IsInt()
  @Min(1)
  id!: number;

  @IsString()
  name!: string;

  @IsObject()
  data!: Record<string, unknown>;

  @IsISO8601()
  occurred_at!: string;
}

export class AutomationEventRecordedV1 {
  @ValidateNested()
  @Type(() => RunInputEventV1)
  event!: RunInputEventV1;

  /** The contact as the event left it. */
  @ValidateNested()
  @Type(() => ContactSnapshotV1)
  contact!: ContactSnapshotV1;
}

/** A run id: an integer (extensions §12 `run_id`). */
export class AutomationTimerFiredV1 {
  @IsString()
  timer_id!: string;

  @IsInt()
  @Min(1)
  run_id!: number;

  @IsISO8601()
  due_at!: string;

  /**
   * The contact as it was when the timer fired; null when the run's version reads no contact (no
   * branch criteria on it, no `until_date` wait), or when the automations service never saw it.
   */
  @IsOptional()
  @ValidateNested()
  @Type(() => ContactSnapshotV1)
  contact!: ContactSnapshotV1 | null;
}

export class AutomationMessageRecordedV1 {
  @IsString()
  @Matches(/^msg_[0-9a-f]{32}$/)
  message_id!: string;

  @IsInt()
  @Min(1)
  run_id!: number;

  @IsString()
  step!: string;

  /** The message's status after its fact; absent for a click. */
  @IsOptional()
  @IsString()
  status?: string;

  /** A human click on one of its tracked links. */
  @IsOptional()
  @IsBoolean()
  clicked?: boolean;

  @IsOptional()
  @IsString()
  channel!: string | null;

  @IsISO8601()
  at!: string;
}

/** The contact of an outcome, as webhooks show contacts. */
export class OutcomeContactV1 {
  @IsInt()
  @Min(1)
  id!: number;

  @IsOptional()
  @IsString()
  external_id!: string | null;

  @IsOptional()
  @IsString()
  name!: string | null;

  @IsOptional()
  @IsString()
  phone!: string | null;

  @IsOptional()
  @IsString()
  email!: string | null;
}

/** outcome.recorded: the data of the webhook (extensions §12, Goals and outcomes), whole. */
export class OutcomeRecordedV1 {
  @IsInt()
  @Min(1)
  id!: number;

  /** The goal event's name. */
  @IsString()
  goal!: string;

  @IsObject()
  workflow!: { id: number; name: string; run_id: number };

  @IsOptional()
  @IsString()
  credited_message_id!: string | null;

  @IsOptional()
  @IsString()
  channel!: string | null;

  @ValidateNested()
  @Type(() => OutcomeContactV1)
  contact!: OutcomeContactV1;

  @IsObject()
  event!: { id: number; data: Record<string, unknown> };

  @IsISO8601()
  occurred_at!: string;

  @IsISO8601()
  created_at!: string;
}

export const RUN_RECORD_TYPES: RecordTypeDefinition[] = [
  { type: RUN_INPUT_TYPES.event, version: 1, schema: AutomationEventRecordedV1 },
  { type: RUN_INPUT_TYPES.timer, version: 1, schema: AutomationTimerFiredV1 },
  { type: RUN_INPUT_TYPES.message, version: 1, schema: AutomationMessageRecordedV1 },
  { type: RUN_FACT_TYPES.outcomeRecorded, version: 1, schema: OutcomeRecordedV1 },
];
