import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { Cron } from 'croner';

import {
  MAX_ROUTE_STEPS,
  MESSAGE_PURPOSES,
  RouteStepBody,
  routeProblems,
  type MessagePurpose,
} from '../messaging/message.bodies';
import { isTimeZone } from '../automations/workflow-definition';
import { isId, jsonBytes, MAX_DATA_BYTES } from '../rules/field-rules';

/**
 * A notification's definition (extensions §13) as `POST` and `PATCH /api/v1/notifications` carry it,
 * read into the value that is stored and answered, or into every problem a 422 names with its pointer.
 * Read by the gateway before anything is recorded and again by the broadcasts service when it decides
 * (with the record's time as `now`), so a record that would not pass is refused whole.
 */

export const MAX_NOTIFICATION_NAME = 255;
/** `throttle_per_minute` at most (a million a minute: more than any channel carries). */
export const MAX_THROTTLE_PER_MINUTE = 1_000_000;

export interface NotificationRouteStep {
  channel_id?: number;
  channel?: string;
  template_id: number;
  wait_for?: string;
  timeout?: string;
}

export interface NotificationDefinition {
  name: string;
  template_id: number;
  target_group_id: number;
  variables: Record<string, unknown>;
  route: NotificationRouteStep[] | null;
  schedule: string | null;
  schedule_timezone: string;
  enabled: boolean;
  purpose: MessagePurpose;
  throttle_per_minute: number | null;
}

export interface NotificationProblem {
  pointer: string;
  detail: string;
}

export type NotificationDefinitionReading<T> =
  { ok: true; value: T } | { ok: false; problems: NotificationProblem[] };

const AT = '/data/attributes';

/** A schedule is a time when it reads as an ISO 8601 date and time; anything else is a cron expression. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

export type NotificationSchedule =
  { kind: 'none' } | { kind: 'once'; at: Date } | { kind: 'cron'; expression: string };

/** What a stored or sent schedule is; `null` when it is neither an ISO time nor a cron expression of five fields. */
export function parseNotificationSchedule(schedule: string | null): NotificationSchedule | null {
  if (schedule === null) return { kind: 'none' };
  const text = schedule.trim();
  if (ISO_TIME.test(text)) {
    const at = new Date(text);
    return Number.isNaN(at.getTime()) ? null : { kind: 'once', at };
  }
  if (text.split(/\s+/).length !== 5) return null;
  try {
    new Cron(text, { paused: true });
    return { kind: 'cron', expression: text };
  } catch {
    return null;
  }
}

/**
 * The next start of a schedule strictly after `after`, or null (no schedule, a time already past, a
 * cron with no further tick). A cron expression is read in `timeZone`.
 */
export function nextScheduledStart(schedule: string | null, timeZone: string, after: Date): Date | null {
  const parsed = parseNotificationSchedule(schedule);
  if (parsed === null || parsed.kind === 'none') return null;
  if (parsed.kind === 'once') return parsed.at.getTime() > after.getTime() ? parsed.at : null;
  return new Cron(parsed.expression, { paused: true, timezone: timeZone }).nextRun(after);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function validationProblems(errors: readonly ValidationError[], at: string): NotificationProblem[] {
  return errors.flatMap((error) => [
    ...Object.values(error.constraints ?? {}).map((detail) => ({
      pointer: `${at}/${error.property}`,
      detail,
    })),
    ...validationProblems(error.children ?? [], `${at}/${error.property}`),
  ]);
}

/**
 * Reads a create (every required attribute, defaults filled in) or an update (only what was sent).
 * `now` decides whether a schedule time is in the past.
 */
export function readNotificationDefinition(
  body: Record<string, unknown>,
  mode: 'create',
  now: Date,
): NotificationDefinitionReading<NotificationDefinition>;
export function readNotificationDefinition(
  body: Record<string, unknown>,
  mode: 'update',
  now: Date,
): NotificationDefinitionReading<Partial<NotificationDefinition>>;
export function readNotificationDefinition(
  body: Record<string, unknown>,
  mode: 'create' | 'update',
  now: Date,
): NotificationDefinitionReading<Partial<NotificationDefinition>> {
  const problems: NotificationProblem[] = [];
  const fail = (field: string, detail: string): void => {
    problems.push({ pointer: `${AT}/${field}`, detail });
  };
  const value: Partial<NotificationDefinition> = {};
  const has = (field: string): boolean => body[field] !== undefined;
  const required = (field: string): boolean => {
    if (has(field)) return true;
    if (mode === 'create') fail(field, `${field} is required`);
    return false;
  };

  if (required('name')) {
    const name = body['name'];
    if (typeof name !== 'string' || name.trim() === '') fail('name', 'name must be a non-empty string');
    else if (name.length > MAX_NOTIFICATION_NAME)
      fail('name', `name must be at most ${MAX_NOTIFICATION_NAME} characters`);
    else value.name = name;
  }
  for (const field of ['template_id', 'target_group_id'] as const) {
    if (!required(field)) continue;
    const id = body[field];
    if (!isId(id)) fail(field, `${field} must be a positive integer`);
    else value[field] = id;
  }
  if (has('variables')) {
    const variables = body['variables'];
    if (!isObject(variables)) fail('variables', 'variables must be an object');
    else if (jsonBytes(variables) > MAX_DATA_BYTES)
      fail('variables', `variables must be at most ${MAX_DATA_BYTES} bytes as JSON`);
    else value.variables = variables;
  } else if (mode === 'create') value.variables = {};
  if (has('route') || (mode === 'update' && Object.hasOwn(body, 'route'))) {
    const route = body['route'];
    if (route === null) value.route = null;
    else if (!Array.isArray(route) || route.length === 0 || route.length > MAX_ROUTE_STEPS) {
      fail('route', `route must be null or an array of 1 to ${MAX_ROUTE_STEPS} steps`);
    } else {
      const before = problems.length;
      route.forEach((item: unknown, index) => {
        const pointer = `${AT}/route/${index}`;
        if (!isObject(item)) {
          problems.push({ pointer, detail: 'a route step must be an object' });
          return;
        }
        const step = plainToInstance(RouteStepBody, item);
        const errors = validateSync(step, { whitelist: true, forbidNonWhitelisted: true });
        for (const problem of [...validationProblems(errors, pointer), ...routeProblems([step])]) {
          problems.push({
            pointer: problem.pointer.replace(`${AT}/route/0`, pointer),
            detail: problem.detail,
          });
        }
      });
      if (problems.length === before) value.route = route as NotificationRouteStep[];
    }
  } else if (mode === 'create') value.route = null;
  if (has('schedule_timezone')) {
    const zone = body['schedule_timezone'];
    if (!isTimeZone(zone))
      fail('schedule_timezone', 'schedule_timezone must be an IANA time zone name, such as Europe/Berlin');
    else value.schedule_timezone = zone;
  } else if (mode === 'create') value.schedule_timezone = 'UTC';
  if (Object.hasOwn(body, 'schedule')) {
    const schedule = body['schedule'];
    if (schedule === null) value.schedule = null;
    else if (typeof schedule !== 'string') {
      fail('schedule', 'schedule must be null, an ISO 8601 time or a cron expression');
    } else {
      const parsed = parseNotificationSchedule(schedule);
      if (parsed === null) {
        fail(
          'schedule',
          'schedule must be an ISO 8601 time with its offset or a cron expression of five fields (minute hour day-of-month month day-of-week)',
        );
      } else if (parsed.kind === 'once' && parsed.at.getTime() <= now.getTime()) {
        fail('schedule', 'schedule is a time in the past');
      } else value.schedule = schedule.trim();
    }
  } else if (mode === 'create') value.schedule = null;
  if (has('enabled')) {
    if (typeof body['enabled'] !== 'boolean') fail('enabled', 'enabled must be true or false');
    else value.enabled = body['enabled'];
  } else if (mode === 'create') value.enabled = true;
  if (has('purpose')) {
    const purpose = body['purpose'];
    if (!(MESSAGE_PURPOSES as readonly unknown[]).includes(purpose))
      fail('purpose', 'purpose must be transactional or marketing');
    else value.purpose = purpose as MessagePurpose;
  } else if (mode === 'create') value.purpose = 'marketing';
  if (Object.hasOwn(body, 'throttle_per_minute')) {
    const throttle = body['throttle_per_minute'];
    if (throttle === null) value.throttle_per_minute = null;
    else if (!isId(throttle) || throttle > MAX_THROTTLE_PER_MINUTE)
      fail(
        'throttle_per_minute',
        `throttle_per_minute must be null or an integer from 1 to ${MAX_THROTTLE_PER_MINUTE}`,
      );
    else value.throttle_per_minute = throttle;
  } else if (mode === 'create') value.throttle_per_minute = null;
  for (const field of Object.keys(body)) {
    if (!KNOWN.has(field)) fail(field, `${field} is not an attribute of a notification`);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value };
}

const KNOWN = new Set([
  'name',
  'template_id',
  'target_group_id',
  'variables',
  'route',
  'schedule',
  'schedule_timezone',
  'enabled',
  'purpose',
  'throttle_per_minute',
  // Answered, so a client may send a resource back as it read it: ignored.
  'id',
  'template_name',
  'target_group',
  'next_run_at',
  'created_at',
  'updated_at',
]);

/** The route a notification's messages take: its own, or the template's channel type's default channel. */
export function notificationRoute(
  definition: Pick<NotificationDefinition, 'route' | 'template_id'>,
  templateChannel: string,
): NotificationRouteStep[] {
  return definition.route ?? [{ channel: templateChannel, template_id: definition.template_id }];
}
