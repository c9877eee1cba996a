import { DomainException, type DomainIssue, type StatusOfCode } from '@cms/kafka';

export enum ContactsErrorCode {
  ContactNotFound = 'contact_not_found',
  TagNotFound = 'tag_not_found',
  /** An id in the body that names nothing in the workspace (extensions §1: 422, not 404). */
  UnknownReference = 'unknown_reference',
  InvalidField = 'invalid_field',
  /** A phone, external_id or email another contact of the workspace holds. */
  IdentifierTaken = 'identifier_taken',
  TagNameTaken = 'tag_name_taken',
  ContactLimitReached = 'contact_limit_reached',
  IdInUse = 'id_in_use',
}

/** Every code has its status; a new code that is not mapped here does not compile. */
const STATUS_OF_CODE: StatusOfCode<ContactsErrorCode> = {
  [ContactsErrorCode.ContactNotFound]: 404,
  [ContactsErrorCode.TagNotFound]: 404,
  [ContactsErrorCode.IdInUse]: 409,
  [ContactsErrorCode.InvalidField]: 422,
  [ContactsErrorCode.UnknownReference]: 422,
  [ContactsErrorCode.IdentifierTaken]: 422,
  [ContactsErrorCode.TagNameTaken]: 422,
  [ContactsErrorCode.ContactLimitReached]: 422,
};

export type ContactsIssue = DomainIssue<ContactsErrorCode>;

/**
 * A request the rules refuse. Thrown before or while a decision writes: what the decision wrote is
 * undone, so a refused request changes nothing, and its outcome carries these errors.
 */
export class ContactsException extends DomainException<ContactsErrorCode> {
  constructor(issues: ContactsIssue | readonly ContactsIssue[]) {
    super(STATUS_OF_CODE, issues);
  }

  static contactNotFound(id: number): ContactsException {
    return new ContactsException({
      code: ContactsErrorCode.ContactNotFound,
      detail: `Contact ${id} was not found.`,
    });
  }

  /** An id sent in the body (not the path) that names nothing in the workspace: 422 at its pointer. */
  static unknownReference(what: 'Contact' | 'Tag', id: number, pointer: string): ContactsIssue {
    return { code: ContactsErrorCode.UnknownReference, detail: `${what} ${id} was not found.`, pointer };
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
