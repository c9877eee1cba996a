import { DomainException, type StatusOfCode } from '@cms/kafka';

export enum AlertErrorCode {
  RuleNotFound = 'alert_rule_not_found',
  /** A field's value the rules refuse (a threshold out of its metric's range, an unknown channel). */
  InvalidField = 'invalid_field',
}

/** Every code has its status; a new code that is not mapped here does not compile. */
const STATUS_OF_CODE: StatusOfCode<AlertErrorCode> = {
  [AlertErrorCode.RuleNotFound]: 404,
  [AlertErrorCode.InvalidField]: 422,
};

export interface AlertFieldProblem {
  pointer: string;
  detail: string;
}

/** A request about alert rules that the rules refuse: nothing it wrote stays. */
export class AlertsException extends DomainException<AlertErrorCode> {
  static ruleNotFound(id: number): AlertsException {
    return new AlertsException(STATUS_OF_CODE, {
      code: AlertErrorCode.RuleNotFound,
      detail: `Alert rule ${id} was not found.`,
    });
  }

  /** One error per problem, each at its pointer. */
  static invalidFields(problems: readonly AlertFieldProblem[]): AlertsException {
    return new AlertsException(
      STATUS_OF_CODE,
      problems.map(({ pointer, detail }) => ({ code: AlertErrorCode.InvalidField, detail, pointer })),
    );
  }
}
