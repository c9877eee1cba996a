import type { FilterProblem } from '@cms/contracts';
import { DomainException, type DomainIssue, type StatusOfCode } from '@cms/kafka';

export enum SegmentsErrorCode {
  IdInUse = 'id_in_use',
  NameTaken = 'name_taken',
  NotFound = 'not_found',
  InvalidFilter = 'invalid_filter',
  UnknownContact = 'unknown_contact',
  UnknownAudience = 'unknown_audience',
  AudienceCycle = 'audience_cycle',
  AudienceInUse = 'audience_in_use',
  InvalidImport = 'invalid_import',
}

/** Every code has its status; a new code that is not mapped here does not compile. */
const STATUS_OF_CODE: StatusOfCode<SegmentsErrorCode> = {
  [SegmentsErrorCode.IdInUse]: 409,
  [SegmentsErrorCode.NameTaken]: 422,
  [SegmentsErrorCode.NotFound]: 404,
  [SegmentsErrorCode.InvalidFilter]: 422,
  [SegmentsErrorCode.UnknownContact]: 422,
  [SegmentsErrorCode.UnknownAudience]: 422,
  [SegmentsErrorCode.AudienceCycle]: 422,
  [SegmentsErrorCode.AudienceInUse]: 409,
  [SegmentsErrorCode.InvalidImport]: 422,
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

  static nameTaken(name: string, pointer = '/data/attributes/name'): SegmentsException {
    return new SegmentsException({
      code: SegmentsErrorCode.NameTaken,
      detail: `The name ${JSON.stringify(name)} is taken by another audience of the workspace.`,
      pointer,
    });
  }

  static audienceNotFound(id: number): SegmentsException {
    return new SegmentsException({
      code: SegmentsErrorCode.NotFound,
      detail: `Audience ${id} was not found.`,
    });
  }

  static invalidFilter(problems: readonly FilterProblem[]): SegmentsException {
    return new SegmentsException(
      problems.map((problem) => ({ code: SegmentsErrorCode.InvalidFilter, ...problem })),
    );
  }

  /** Contact ids of a list that name no contact of the workspace, each at its place in the list. */
  static unknownContacts(
    field: string,
    unknown: ReadonlyArray<{ index: number; id: number }>,
  ): SegmentsException {
    return new SegmentsException(
      unknown.map(({ index, id }) => ({
        code: SegmentsErrorCode.UnknownContact,
        detail: `Contact ${id} does not exist in this workspace.`,
        pointer: `/data/attributes/${field}/${index}`,
      })),
    );
  }

  static unknownAudiences(ids: readonly number[]): SegmentsException {
    return new SegmentsException(
      ids.map((id) => ({
        code: SegmentsErrorCode.UnknownAudience,
        detail: `Audience ${id} does not exist in this workspace.`,
        pointer: '/data/attributes/filter_criteria',
      })),
    );
  }

  static audienceCycle(path: readonly number[]): SegmentsException {
    return new SegmentsException({
      code: SegmentsErrorCode.AudienceCycle,
      detail: `Audiences may not refer to themselves: ${path.join(' → ')}.`,
      pointer: '/data/attributes/filter_criteria',
    });
  }

  static audienceInUse(id: number, by: readonly number[]): SegmentsException {
    return new SegmentsException({
      code: SegmentsErrorCode.AudienceInUse,
      detail: `Audience ${id} is used by the filter of audience ${by.join(', ')}; change those first.`,
    });
  }

  static invalidImport(detail: string, pointer: string): SegmentsException {
    return new SegmentsException({ code: SegmentsErrorCode.InvalidImport, detail, pointer });
  }
}
