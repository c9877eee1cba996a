import {
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Min,
} from 'class-validator';

import type { RecordTypeDefinition } from '../registry/record-type-registry';
import { firstVersions, type PayloadsOf } from '../requests/request-schemas';
import {
  ALERT_COMPARATORS,
  ALERT_METRICS,
  ALERT_STATUSES,
  CreateAlertRuleBody,
  UpdateAlertRuleBody,
  type AlertComparator,
  type AlertMetric,
  type AlertStatus,
} from './alert.bodies';

/**
 * Delivery monitoring's requests (cms.requests.v1, key = workspace id), decided by the messaging
 * service. Rule ids are minted by the messaging service per workspace (the default rule is 1).
 */
export const ALERT_REQUEST_TYPES = {
  alertRuleCreate: 'alert-rule.create.requested',
  alertRuleUpdate: 'alert-rule.update.requested',
  alertRuleDelete: 'alert-rule.delete.requested',
  /** Appended by the messaging service's timer worker: a firing alert's window may have emptied. */
  alertCheck: 'alert.check.recorded',
} as const;

/** Facts of delivery monitoring (cms.messaging.v1, subject = the alert id). */
/** An alert id: `alert_` and 32 lower-case hexadecimal digits, made by the messaging service. */
export const ALERT_ID_PATTERN = /^alert_[0-9a-f]{32}$/;

export const ALERT_FACT_TYPES = {
  /** An alert started or resolved; becomes the alert.triggered webhook. */
  alertTriggered: 'alert.triggered',
} as const;

export class AlertRuleCreateRequestedV1 extends CreateAlertRuleBody {}

export class AlertRuleUpdateRequestedV1 extends UpdateAlertRuleBody {
  @IsInt()
  @Min(1)
  rule_id!: number;
}

export class AlertRuleDeleteRequestedV1 {
  @IsInt()
  @Min(1)
  rule_id!: number;
}

export class AlertCheckRecordedV1 {
  @IsString()
  @Matches(ALERT_ID_PATTERN)
  alert_id!: string;

  @IsInt()
  @Min(1)
  rule_id!: number;

  @IsISO8601()
  at!: string;
}

/** One failure code among a window's failures, with its fix. */
export interface AlertFailureCodeV1 {
  code: string;
  count: number;
  fix: string;
}

/** The alert as `GET /api/v1/alerts/{id}` answers it, and the notification's place among its own. */
export class AlertTriggeredV1 {
  @IsString()
  id!: string;

  @IsInt()
  @Min(1)
  rule_id!: number;

  @IsIn(ALERT_STATUSES)
  status!: AlertStatus;

  @IsIn(ALERT_METRICS)
  metric!: AlertMetric;

  @IsIn(ALERT_COMPARATORS)
  comparator!: AlertComparator;

  @IsNumber()
  value!: number;

  @IsNumber()
  threshold!: number;

  @IsInt()
  window_minutes!: number;

  @IsInt()
  sample_size!: number;

  @IsObject()
  scope!: { channel_id?: number; workflow_id?: number; campaign_id?: number };

  @IsArray()
  top_failure_codes!: AlertFailureCodeV1[];

  @IsISO8601()
  started_at!: string;

  @IsOptional()
  @IsISO8601()
  resolved_at!: string | null;

  @IsISO8601()
  created_at!: string;

  @IsISO8601()
  updated_at!: string;

  /** 1 when the alert starts, 2 when it resolves. */
  @IsInt()
  @Min(1)
  notification_seq!: number;
}

export const ALERT_REQUEST_SCHEMAS = {
  [ALERT_REQUEST_TYPES.alertRuleCreate]: AlertRuleCreateRequestedV1,
  [ALERT_REQUEST_TYPES.alertRuleUpdate]: AlertRuleUpdateRequestedV1,
  [ALERT_REQUEST_TYPES.alertRuleDelete]: AlertRuleDeleteRequestedV1,
  [ALERT_REQUEST_TYPES.alertCheck]: AlertCheckRecordedV1,
} as const;

export type AlertRequestPayloads = PayloadsOf<typeof ALERT_REQUEST_SCHEMAS>;

export const ALERT_RECORD_TYPES: RecordTypeDefinition[] = [
  ...firstVersions(ALERT_REQUEST_SCHEMAS),
  { type: ALERT_FACT_TYPES.alertTriggered, version: 1, schema: AlertTriggeredV1 },
];
