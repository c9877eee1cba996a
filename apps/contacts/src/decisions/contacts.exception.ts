import { RequestRefusedError } from '@cms/kafka';
import type { OutcomeError } from '@cms/contracts';

export enum ContactsErrorCode {
  ContactNotFound = 'contact_not_found',
  TagNotFound = 'tag_not_found',
  InvalidField = 'invalid_field',
  PhoneTaken = 'phone_taken',
  TagNameTaken = 'tag_name_taken',
  ContactLimitReached = 'contact_limit_reached',
  IdInUse = 'id_in_use',
}

type DecisionStatus = 404 | 409 | 422;

/** Every code has its status; a new code that is not mapped here does not compile. */
export function statusOf(code: ContactsErrorCode): DecisionStatus {
  switch (code) {
    case ContactsErrorCode.ContactNotFound:
    case ContactsErrorCode.TagNotFound:
      return 404;
    case ContactsErrorCode.IdInUse:
      return 409;
    case ContactsErrorCode.InvalidField:
    case ContactsErrorCode.PhoneTaken:
    case ContactsErrorCode.TagNameTaken:
    case ContactsErrorCode.ContactLimitReached:
      return 422;
  }
}

const TITLES: Record<DecisionStatus, string> = {
  404: 'Not Found',
  409: 'Conflict',
  422: 'Validation Error',
};

export interface ContactsIssue {
  code: ContactsErrorCode;
  detail: string;
  /** JSON pointer into the request body, e.g. `/data/attributes/phone`. */
  pointer?: string;
}

/**
 * A request the rules refuse. Thrown before or while a decision writes: the decision's savepoint is
 * rolled back, so a refused request changes nothing, and its outcome carries these errors.
 */
export class ContactsException extends RequestRefusedError {
  readonly issues: readonly ContactsIssue[];

  constructor(issues: ContactsIssue | readonly ContactsIssue[]) {
    const list = Array.isArray(issues) ? issues : [issues as ContactsIssue];
    super(list.map((issue) => issue.detail).join(' '));
    this.name = 'ContactsException';
    this.issues = list;
  }

  get status(): DecisionStatus {
    return statusOf(this.issues[0]!.code);
  }

  toErrors(): OutcomeError[] {
    return this.issues.map((issue) => {
      const status = statusOf(issue.code);
      return {
        status: String(status),
        title: TITLES[status],
        detail: issue.detail,
        ...(issue.pointer !== undefined ? { source: { pointer: issue.pointer } } : {}),
      };
    });
  }

  static contactNotFound(id: number, pointer?: string): ContactsException {
    return new ContactsException({
      code: ContactsErrorCode.ContactNotFound,
      detail: `Contact ${id} was not found.`,
      ...(pointer !== undefined ? { pointer } : {}),
    });
  }

  static tagNotFound(id: number): ContactsException {
    return new ContactsException({ code: ContactsErrorCode.TagNotFound, detail: `Tag ${id} was not found.` });
  }

  static invalid(pointer: string, detail: string): ContactsException {
    return new ContactsException({ code: ContactsErrorCode.InvalidField, detail, pointer });
  }

  static contactLimit(limit: number): ContactsException {
    return new ContactsException({
      code: ContactsErrorCode.ContactLimitReached,
      detail: `The workspace has reached its plan's limit of ${limit} stored contacts.`,
      pointer: '/data/attributes/contact',
    });
  }

  static idInUse(what: string, id: number): ContactsException {
    return new ContactsException({
      code: ContactsErrorCode.IdInUse,
      detail: `${what} id ${id} is already in use.`,
    });
  }
}
