import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

import { IsOptionalNotNull } from '../contacts/channels';

/** What an alert rule measures over its window (extensions §10, Alert rules). */
export const ALERT_METRICS = ['failure_rate', 'suppression_rate', 'delivery_rate', 'failure_count'] as const;
export type AlertMetric = (typeof ALERT_METRICS)[number];

export const ALERT_COMPARATORS = ['gt', 'lt'] as const;
export type AlertComparator = (typeof ALERT_COMPARATORS)[number];

export const ALERT_STATUSES = ['firing', 'resolved'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

export const MIN_ALERT_WINDOW_MINUTES = 5;
export const MAX_ALERT_WINDOW_MINUTES = 1440;
export const DEFAULT_ALERT_MIN_VOLUME = 20;
const MAX_ALERT_NAME_LENGTH = 255;
const NOT_BLANK = /\S/;
/** An identifier as a body carries it (extensions §1): a positive integer up to 2^53 − 1. */
const MAX_ID = Number.MAX_SAFE_INTEGER;

/** `scope`: which messages a rule watches; an empty object is the whole workspace. */
export class AlertScopeBody {
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  channel_id?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  workflow_id?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  campaign_id?: number;
}

/**
 * `POST /api/v1/alert-rules`. The threshold's range depends on the metric (a rate in 0–1, a count ≥ 0):
 * the messaging service checks it, since a PATCH may change either alone.
 */
export class CreateAlertRuleBody {
  @IsString()
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  @MaxLength(MAX_ALERT_NAME_LENGTH)
  name!: string;

  @IsIn(ALERT_METRICS, { message: `metric must be one of ${ALERT_METRICS.join(', ')}` })
  metric!: AlertMetric;

  @IsIn(ALERT_COMPARATORS, { message: `comparator must be one of ${ALERT_COMPARATORS.join(', ')}` })
  comparator!: AlertComparator;

  @IsNumber({ allowNaN: false, allowInfinity: false })
  threshold!: number;

  @IsInt()
  @Min(MIN_ALERT_WINDOW_MINUTES)
  @Max(MAX_ALERT_WINDOW_MINUTES)
  window_minutes!: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1_000_000_000)
  min_volume?: number;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AlertScopeBody)
  scope?: AlertScopeBody;

  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

/** `PATCH /api/v1/alert-rules/{id}`: only the fields sent change; `scope` is replaced as a whole. */
export class UpdateAlertRuleBody {
  @IsOptionalNotNull()
  @IsString()
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  @MaxLength(MAX_ALERT_NAME_LENGTH)
  name?: string;

  @IsOptionalNotNull()
  @IsIn(ALERT_METRICS, { message: `metric must be one of ${ALERT_METRICS.join(', ')}` })
  metric?: AlertMetric;

  @IsOptionalNotNull()
  @IsIn(ALERT_COMPARATORS, { message: `comparator must be one of ${ALERT_COMPARATORS.join(', ')}` })
  comparator?: AlertComparator;

  @IsOptionalNotNull()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  threshold?: number;

  @IsOptionalNotNull()
  @IsInt()
  @Min(MIN_ALERT_WINDOW_MINUTES)
  @Max(MAX_ALERT_WINDOW_MINUTES)
  window_minutes?: number;

  @IsOptionalNotNull()
  @IsInt()
  @Min(0)
  @Max(1_000_000_000)
  min_volume?: number;

  @IsOptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => AlertScopeBody)
  scope?: AlertScopeBody;

  @IsOptionalNotNull()
  @IsBoolean()
  enabled?: boolean;
}
