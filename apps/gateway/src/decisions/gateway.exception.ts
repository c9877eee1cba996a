import { DomainException, type DomainIssue, type StatusOfCode } from '@cms/kafka';

export enum GatewayErrorCode {
  WorkspaceNotFound = 'workspace_not_found',
  ApiKeyNotFound = 'api_key_not_found',
  /** A workspace or integration whose id (or an integration's token) is already taken. */
  AlreadyExists = 'already_exists',
}

/** Every code has its status; a new code that is not mapped here does not compile. */
const STATUS_OF_CODE: StatusOfCode<GatewayErrorCode> = {
  [GatewayErrorCode.WorkspaceNotFound]: 404,
  [GatewayErrorCode.ApiKeyNotFound]: 404,
  [GatewayErrorCode.AlreadyExists]: 409,
};

export type GatewayIssue = DomainIssue<GatewayErrorCode>;

/**
 * A workspace, API key or integration request the gateway refuses. Thrown before or while a decision
 * writes: what it wrote is undone, and its outcome carries these errors.
 */
export class GatewayException extends DomainException<GatewayErrorCode> {
  constructor(issues: GatewayIssue | readonly GatewayIssue[]) {
    super(STATUS_OF_CODE, issues);
  }

  static workspaceNotFound(id: number | string): GatewayException {
    return new GatewayException({
      code: GatewayErrorCode.WorkspaceNotFound,
      detail: `Workspace ${id} was not found.`,
    });
  }

  static apiKeyNotFound(id: number): GatewayException {
    return new GatewayException({
      code: GatewayErrorCode.ApiKeyNotFound,
      detail: `API key ${id} was not found.`,
    });
  }

  static alreadyExists(what: 'Workspace' | 'Integration', id: number): GatewayException {
    return new GatewayException({
      code: GatewayErrorCode.AlreadyExists,
      detail: `${what} ${id} already exists.`,
    });
  }
}
