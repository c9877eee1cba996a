import { DomainException, type DomainIssue, type StatusOfCode } from '@cms/kafka';

export enum MessagingErrorCode {
  IdInUse = 'id_in_use',
  NameTaken = 'name_taken',
}

/** Every code has its status; a new code that is not mapped here does not compile. */
const STATUS_OF_CODE: StatusOfCode<MessagingErrorCode> = {
  [MessagingErrorCode.IdInUse]: 409,
  [MessagingErrorCode.NameTaken]: 422,
};

export type MessagingIssue = DomainIssue<MessagingErrorCode>;

/** A request the rules refuse: nothing it wrote stays, and its outcome carries these errors. */
export class MessagingException extends DomainException<MessagingErrorCode> {
  constructor(issues: MessagingIssue | readonly MessagingIssue[]) {
    super(STATUS_OF_CODE, issues);
  }

  static idInUse(id: string): MessagingException {
    return new MessagingException({
      code: MessagingErrorCode.IdInUse,
      detail: `Channel id ${id} is already in use.`,
    });
  }

  static nameTaken(name: string): MessagingException {
    return new MessagingException({
      code: MessagingErrorCode.NameTaken,
      detail: `The name ${JSON.stringify(name)} is taken by another channel of the workspace.`,
      pointer: '/data/attributes/name',
    });
  }
}
