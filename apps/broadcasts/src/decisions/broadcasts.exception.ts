import type { NotificationSendStatus } from '@cms/contracts';
import { DomainException, type DomainIssue, type StatusOfCode } from '@cms/kafka';

export enum BroadcastsErrorCode {
  IdInUse = 'id_in_use',
  NotFound = 'not_found',
  InvalidNotification = 'invalid_notification',
  UnknownNotification = 'unknown_notification',
  NotificationDisabled = 'notification_disabled',
  SendStatusConflict = 'send_status_conflict',
}

/** Every code has its status; a new code that is not mapped here does not compile. */
const STATUS_OF_CODE: StatusOfCode<BroadcastsErrorCode> = {
  [BroadcastsErrorCode.IdInUse]: 409,
  [BroadcastsErrorCode.NotFound]: 404,
  [BroadcastsErrorCode.InvalidNotification]: 422,
  [BroadcastsErrorCode.UnknownNotification]: 422,
  [BroadcastsErrorCode.NotificationDisabled]: 422,
  [BroadcastsErrorCode.SendStatusConflict]: 409,
};

const NOTIFICATION_ID = '/data/attributes/notification_id';

export type BroadcastsIssue = DomainIssue<BroadcastsErrorCode>;

/** A request the rules refuse: nothing it wrote stays, and its outcome carries these errors. */
export class BroadcastsException extends DomainException<BroadcastsErrorCode> {
  constructor(issues: BroadcastsIssue | readonly BroadcastsIssue[]) {
    super(STATUS_OF_CODE, issues);
  }

  static idInUse(id: number): BroadcastsException {
    return new BroadcastsException({
      code: BroadcastsErrorCode.IdInUse,
      detail: `Notification id ${id} is already in use.`,
    });
  }

  static notificationNotFound(id: number): BroadcastsException {
    return new BroadcastsException({
      code: BroadcastsErrorCode.NotFound,
      detail: `Notification ${id} was not found.`,
    });
  }

  static sendNotFound(id: number): BroadcastsException {
    return new BroadcastsException({
      code: BroadcastsErrorCode.NotFound,
      detail: `Notification send ${id} was not found.`,
    });
  }

  /** A definition the rules of §13 refuse, each problem at its pointer. */
  static invalidNotification(
    problems: ReadonlyArray<{ pointer: string; detail: string }>,
  ): BroadcastsException {
    return new BroadcastsException(
      problems.map((problem) => ({ code: BroadcastsErrorCode.InvalidNotification, ...problem })),
    );
  }

  /** A send body naming a notification the workspace does not have (§1: 422 in a body). */
  static unknownNotification(id: number): BroadcastsException {
    return new BroadcastsException({
      code: BroadcastsErrorCode.UnknownNotification,
      detail: `Notification ${id} was not found.`,
      pointer: NOTIFICATION_ID,
    });
  }

  /** A test send whose record names no contact: only the gateway makes such records, and it always names one. */
  static missingTestContact(): BroadcastsException {
    return new BroadcastsException({
      code: BroadcastsErrorCode.InvalidNotification,
      detail: 'test_phone is required with test_mode.',
      pointer: '/data/attributes/test_phone',
    });
  }

  static notificationDisabled(id: number): BroadcastsException {
    return new BroadcastsException({
      code: BroadcastsErrorCode.NotificationDisabled,
      detail: `Notification ${id} is disabled: enable it to send it to its audience (a test send works either way).`,
      pointer: NOTIFICATION_ID,
    });
  }

  static statusConflict(id: number, action: string, status: NotificationSendStatus): BroadcastsException {
    return new BroadcastsException({
      code: BroadcastsErrorCode.SendStatusConflict,
      detail: `Notification send ${id} is ${status}: it cannot be ${action}.`,
    });
  }
}
