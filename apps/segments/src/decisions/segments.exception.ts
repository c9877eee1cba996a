import { DomainException, type DomainIssue, type StatusOfCode } from '@cms/kafka';

export enum SegmentsErrorCode {
  IdInUse = 'id_in_use',
  NameTaken = 'name_taken',
}

/** Every code has its status; a new code that is not mapped here does not compile. */
const STATUS_OF_CODE: StatusOfCode<SegmentsErrorCode> = {
  [SegmentsErrorCode.IdInUse]: 409,
  [SegmentsErrorCode.NameTaken]: 422,
};

export type SegmentsIssue = DomainIssue<SegmentsErrorCode>;

/** A request the rules refuse: nothing it wrote stays, and its outcome carries these errors. */
export class SegmentsException extends DomainException<SegmentsErrorCode> {
  constructor(issues: SegmentsIssue | readonly SegmentsIssue[]) {
    super(STATUS_OF_CODE, issues);
  }

  static idInUse(id: number): SegmentsException {
    return new SegmentsException({
      code: SegmentsErrorCode.IdInUse,
      detail: `Audience id ${id} is already in use.`,
    });
  }

  static nameTaken(name: string): SegmentsException {
    return new SegmentsException({
      code: SegmentsErrorCode.NameTaken,
      detail: `The name ${JSON.stringify(name)} is taken by another audience of the workspace.`,
      pointer: '/data/attributes/name',
    });
  }
}
