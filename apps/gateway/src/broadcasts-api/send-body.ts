import { isId, MAX_PHONE_LENGTH, toE164 } from '@cms/contracts';
import { JsonApiException, type ValidationIssue } from '@cms/http';

/** What `POST /api/v1/notifications/send` and `/batch-send` ask for, read from their body. */
export type SendAsked =
  | { notification_id: number; test_mode: false }
  | { notification_id: number; test_mode: true; test_phone: string };

/**
 * The two routes behave alike; the specification lets batch-send's string fields be null, where
 * send wants a string whenever one is given.
 */
export type SendRoute = 'send' | 'batch-send';

const AT = '/data/attributes';

/**
 * Reads a send body (interface specification, Notifications) or refuses it with every problem at its
 * pointer (422), before anything is recorded. `notification_audience` and `notification_template` are
 * deprecated: read for their type and otherwise ignored (the saved audience and template are sent).
 * With `test_mode`, `test_phone` is required and must be a possible number with its country code; it is
 * answered in its E.164 form, the one every service matches phones by. Without it, `test_phone` is read
 * for its type only.
 */
export function readSendBody(body: Record<string, unknown>, route: SendRoute): SendAsked {
  const issues: ValidationIssue[] = [];
  const fail = (field: string, detail: string): void => {
    issues.push({ detail, source: { pointer: `${AT}/${field}` } });
  };
  /** A string field that may be absent (and null on batch-send): the string, or undefined. */
  const text = (field: string): string | undefined => {
    const value = body[field];
    if (value === undefined || (value === null && route === 'batch-send')) return undefined;
    if (typeof value === 'string') return value;
    fail(field, route === 'batch-send' ? `${field} must be a string or null` : `${field} must be a string`);
    return undefined;
  };

  const notificationId = body['notification_id'];
  if (notificationId === undefined) fail('notification_id', 'notification_id is required');
  else if (!isId(notificationId)) fail('notification_id', 'notification_id must be a positive integer');
  text('notification_audience');
  text('notification_template');
  const testMode = body['test_mode'] === undefined ? false : body['test_mode'];
  if (typeof testMode !== 'boolean') fail('test_mode', 'test_mode must be true or false');
  const before = issues.length;
  const phone = text('test_phone');
  let testPhone: string | undefined;
  // A test_phone of the wrong type has its problem already; only a usable one or none is judged here.
  if (testMode === true && issues.length === before) {
    // Bounded before it is parsed: the phone reading remembers what it was given.
    testPhone = phone !== undefined && phone.length <= MAX_PHONE_LENGTH ? toE164(phone) : undefined;
    if (phone === undefined) fail('test_phone', 'test_phone is required with test_mode');
    else if (testPhone === undefined)
      fail('test_phone', 'test_phone must be a phone number with its country code, such as +14155550123');
  }
  if (issues.length > 0) throw JsonApiException.validation(issues);
  const id = notificationId as number;
  return testPhone === undefined
    ? { notification_id: id, test_mode: false }
    : { notification_id: id, test_mode: true, test_phone: testPhone };
}
