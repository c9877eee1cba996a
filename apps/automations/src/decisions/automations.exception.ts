import { DomainException, type DomainIssue, type StatusOfCode } from '@cms/kafka';

export enum AutomationsErrorCode {
  IdInUse = 'id_in_use',
  NotFound = 'not_found',
  InvalidWorkflow = 'invalid_workflow',
  InvalidBot = 'invalid_bot',
}

/** Every code has its status; a new code that is not mapped here does not compile. */
const STATUS_OF_CODE: StatusOfCode<AutomationsErrorCode> = {
  [AutomationsErrorCode.IdInUse]: 409,
  [AutomationsErrorCode.NotFound]: 404,
  [AutomationsErrorCode.InvalidWorkflow]: 422,
  [AutomationsErrorCode.InvalidBot]: 422,
};

export type AutomationsIssue = DomainIssue<AutomationsErrorCode>;

/** A request the rules refuse: nothing it wrote stays, and its outcome carries these errors. */
export class AutomationsException extends DomainException<AutomationsErrorCode> {
  constructor(issues: AutomationsIssue | readonly AutomationsIssue[]) {
    super(STATUS_OF_CODE, issues);
  }

  static idInUse(id: number, kind = 'Workflow'): AutomationsException {
    return new AutomationsException({
      code: AutomationsErrorCode.IdInUse,
      detail: `${kind} id ${id} is already in use.`,
    });
  }

  static botNotFound(id: number): AutomationsException {
    return new AutomationsException({
      code: AutomationsErrorCode.NotFound,
      detail: `Bot ${id} was not found.`,
    });
  }

  /** A bot the rules of §12 refuse (as sent, or as a PATCH would leave it), each problem at its pointer. */
  static invalidBot(problems: ReadonlyArray<{ pointer: string; detail: string }>): AutomationsException {
    return new AutomationsException(
      problems.map((problem) => ({ code: AutomationsErrorCode.InvalidBot, ...problem })),
    );
  }

  static workflowNotFound(id: number): AutomationsException {
    return new AutomationsException({
      code: AutomationsErrorCode.NotFound,
      detail: `Workflow ${id} was not found.`,
    });
  }

  /** A definition the rules of §12 refuse, each problem at its pointer. */
  static invalidWorkflow(problems: ReadonlyArray<{ pointer: string; detail: string }>): AutomationsException {
    return new AutomationsException(
      problems.map((problem) => ({ code: AutomationsErrorCode.InvalidWorkflow, ...problem })),
    );
  }
}
