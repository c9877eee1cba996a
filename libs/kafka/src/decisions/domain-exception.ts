import type { OutcomeError } from '@cms/contracts';

import { RequestRefusedError } from './request-decision';

/** The statuses a decision may refuse a request with. */
export type RefusalStatus = 400 | 403 | 404 | 409 | 422;

const TITLES: Record<RefusalStatus, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Validation Error',
};

/**
 * How a service answers each of its error codes. A `Record` over the codes, so a code added to the
 * service's enum without a status does not compile.
 */
export type StatusOfCode<Code extends string> = Readonly<Record<Code, RefusalStatus>>;

export interface DomainIssue<Code extends string> {
  code: Code;
  detail: string;
  /** JSON pointer into the request body, e.g. `/data/attributes/phone`. */
  pointer?: string;
}

function issuesOf<Code extends string>(
  issues: DomainIssue<Code> | readonly DomainIssue<Code>[],
): readonly DomainIssue<Code>[] {
  const list = Array.isArray(issues)
    ? (issues as readonly DomainIssue<Code>[])
    : [issues as DomainIssue<Code>];
  if (list.length === 0) throw new RangeError('A refusal names at least one issue.');
  return list;
}

/**
 * A request a service's rules refuse, with one or more issues. Thrown before or while a decision
 * writes: the decision's savepoint (or its store's undo scope) takes back what it wrote, and the
 * outcome carries one error per issue; the first issue's status is the answer's.
 */
export class DomainException<Code extends string> extends RequestRefusedError {
  readonly issues: readonly DomainIssue<Code>[];
  private readonly statuses: StatusOfCode<Code>;

  constructor(statuses: StatusOfCode<Code>, issues: DomainIssue<Code> | readonly DomainIssue<Code>[]) {
    const list = issuesOf(issues);
    super(list.map((issue) => issue.detail).join(' '));
    this.name = new.target.name;
    this.statuses = statuses;
    this.issues = list;
  }

  get code(): Code {
    return this.issues[0]!.code;
  }

  get status(): RefusalStatus {
    return this.statuses[this.code];
  }

  toErrors(): OutcomeError[] {
    return this.issues.map((issue) => {
      const status = this.statuses[issue.code];
      return {
        status: String(status),
        title: TITLES[status],
        detail: issue.detail,
        ...(issue.pointer !== undefined ? { source: { pointer: issue.pointer } } : {}),
      };
    });
  }
}
