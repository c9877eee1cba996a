import { DomainException, type DomainIssue, type StatusOfCode } from '@cms/kafka';

export enum ImportsErrorCode {
  IdInUse = 'id_in_use',
  UploadExpired = 'upload_expired',
  NoIdentifierColumn = 'no_identifier_column',
  IdBlocksMismatch = 'id_blocks_mismatch',
  AudienceNameTaken = 'audience_name_taken',
  JobNotFound = 'job_not_found',
}

/** Every code has its status; a new code that is not mapped here does not compile. */
const STATUS_OF_CODE: StatusOfCode<ImportsErrorCode> = {
  [ImportsErrorCode.IdInUse]: 409,
  [ImportsErrorCode.UploadExpired]: 422,
  [ImportsErrorCode.NoIdentifierColumn]: 422,
  [ImportsErrorCode.IdBlocksMismatch]: 422,
  [ImportsErrorCode.AudienceNameTaken]: 422,
  [ImportsErrorCode.JobNotFound]: 404,
};

export type ImportsIssue = DomainIssue<ImportsErrorCode>;

/** An import request the rules refuse: nothing it wrote stays, and its outcome carries these errors. */
export class ImportsException extends DomainException<ImportsErrorCode> {
  constructor(issues: ImportsIssue | readonly ImportsIssue[]) {
    super(STATUS_OF_CODE, issues);
  }

  /** The gateway mints job and audience ids: one in use is a replayed or forged request. */
  static idInUse(what: 'Import job' | 'Audience', id: number): ImportsException {
    return new ImportsException({
      code: ImportsErrorCode.IdInUse,
      detail: `${what} id ${id} is already in use.`,
    });
  }

  static uploadExpired(path: string): ImportsException {
    return new ImportsException({
      code: ImportsErrorCode.UploadExpired,
      detail: `The upload ${JSON.stringify(path)} expired before the request was recorded.`,
      pointer: '/data/attributes/path',
    });
  }

  static noIdentifierColumn(): ImportsException {
    return new ImportsException({
      code: ImportsErrorCode.NoIdentifierColumn,
      detail: 'The mapping must name the column of the phone or of the email: rows are matched by them.',
      pointer: '/data/attributes/mapping',
    });
  }

  static idBlocksMismatch(blocks: number, needed: number): ImportsException {
    return new ImportsException({
      code: ImportsErrorCode.IdBlocksMismatch,
      detail: `The request reserves ${blocks} blocks of contact ids where its rows need ${needed}.`,
      pointer: '/data/attributes/id_blocks',
    });
  }

  static audienceNameTaken(name: string): ImportsException {
    return new ImportsException({
      code: ImportsErrorCode.AudienceNameTaken,
      detail: `The name ${JSON.stringify(name)} is taken by another audience of the workspace.`,
      pointer: '/data/attributes/audience_name',
    });
  }

  static jobNotFound(id: number): ImportsException {
    return new ImportsException({
      code: ImportsErrorCode.JobNotFound,
      detail: `Import job ${id} was not found.`,
    });
  }
}
