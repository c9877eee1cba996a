import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  Max,
  Min,
  ValidateBy,
  ValidateNested,
  type ValidationOptions,
} from 'class-validator';

import { CHANNEL_TYPES, type ChannelType } from './channel.bodies';

export const MESSAGE_PURPOSES = ['transactional', 'marketing'] as const;
export type MessagePurpose = (typeof MESSAGE_PURPOSES)[number];

/** A message's statuses (extensions §9): outbound `queued → sent → delivered → read`, `failed`, `suppressed`; inbound `received`. */
export const MESSAGE_STATUSES = [
  'queued',
  'sent',
  'delivered',
  'read',
  'failed',
  'suppressed',
  'received',
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** The status a route step waits for before the route moves on. */
export const WAIT_FOR_STATUSES = ['sent', 'delivered', 'read'] as const;
export type WaitForStatus = (typeof WAIT_FOR_STATUSES)[number];

export const MAX_ROUTE_STEPS = 4;
export const MIN_STEP_TIMEOUT_MS = 30_000;
export const MAX_STEP_TIMEOUT_MS = 7 * 24 * 3600_000;
/** When a step waits for a status and names no timeout. */
export const DEFAULT_STEP_TIMEOUT = 'PT10M';
const MAX_ID = Number.MAX_SAFE_INTEGER;

const DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** The milliseconds of an ISO 8601 duration of weeks, days, hours, minutes and seconds; NaN otherwise. */
export function isoDurationMs(text: string): number {
  const match = DURATION.exec(text);
  if (match === null || text === 'P' || text.endsWith('T')) return NaN;
  const [, weeks, days, hours, minutes, seconds] = match;
  const number = (part: string | undefined): number => (part === undefined ? 0 : Number(part));
  return (
    ((((number(weeks) * 7 + number(days)) * 24 + number(hours)) * 60 + number(minutes)) * 60 +
      number(seconds)) *
    1000
  );
}

function timeoutProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'timeout must be an ISO 8601 duration such as PT10M';
  const ms = isoDurationMs(value);
  if (Number.isNaN(ms)) return 'timeout must be an ISO 8601 duration such as PT10M';
  if (ms < MIN_STEP_TIMEOUT_MS || ms > MAX_STEP_TIMEOUT_MS) return 'timeout must be from PT30S to P7D';
  return undefined;
}

/** An ISO 8601 duration from PT30S to P7D. */
export function IsStepTimeout(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isStepTimeout',
      validator: {
        validate: (value: unknown) => timeoutProblem(value) === undefined,
        defaultMessage: (args) => timeoutProblem(args?.value) ?? 'timeout is not valid',
      },
    },
    options,
  );
}

/** One step of a route: a channel by id or by type (the workspace's default of that type), and a template. */
export class RouteStepBody {
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  channel_id?: number;

  @IsOptional()
  @IsIn(CHANNEL_TYPES, { message: `channel must be one of ${CHANNEL_TYPES.join(', ')}` })
  channel?: ChannelType;

  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  template_id!: number;

  @IsOptional()
  @IsIn(WAIT_FOR_STATUSES, { message: 'wait_for must be sent, delivered or read' })
  wait_for?: WaitForStatus;

  @IsOptional()
  @IsStepTimeout()
  timeout?: string;
}

/** `POST /api/v1/messages`. */
export class SendMessageBody {
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  contact_id!: number;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ROUTE_STEPS)
  @ValidateNested({ each: true })
  @Type(() => RouteStepBody)
  route!: RouteStepBody[];

  @IsOptional()
  @IsObject()
  variables?: Record<string, unknown>;

  @IsOptional()
  @IsIn(MESSAGE_PURPOSES, { message: 'purpose must be transactional or marketing' })
  purpose?: MessagePurpose;
}

/** Problems a route has beyond each field's own rules: a step must name a channel one way, and only one. */
export function routeProblems(route: readonly RouteStepBody[]): Array<{ pointer: string; detail: string }> {
  const problems: Array<{ pointer: string; detail: string }> = [];
  route.forEach((step, index) => {
    const at = `/data/attributes/route/${index}`;
    if (step.channel_id === undefined && step.channel === undefined)
      problems.push({ pointer: `${at}/channel_id`, detail: 'a step names channel_id or channel' });
    if (step.timeout !== undefined && step.wait_for === undefined)
      problems.push({ pointer: `${at}/timeout`, detail: 'timeout needs wait_for' });
  });
  return problems;
}
