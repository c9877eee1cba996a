import { RequestRefusedError } from '@cms/kafka';
import type { OutcomeError } from '@cms/contracts';

export enum WebhooksErrorCode {
  EndpointNotFound = 'endpoint_not_found',
  DeliveryNotFound = 'delivery_not_found',
  InvalidUrl = 'invalid_url',
  EndpointLimitReached = 'endpoint_limit_reached',
  IdInUse = 'id_in_use',
}

type DecisionStatus = 404 | 409 | 422;

/** Every code has its status; a new code that is not mapped here does not compile. */
export function statusOf(code: WebhooksErrorCode): DecisionStatus {
  switch (code) {
    case WebhooksErrorCode.EndpointNotFound:
    case WebhooksErrorCode.DeliveryNotFound:
      return 404;
    case WebhooksErrorCode.IdInUse:
      return 409;
    case WebhooksErrorCode.InvalidUrl:
    case WebhooksErrorCode.EndpointLimitReached:
      return 422;
  }
}

const TITLES: Record<DecisionStatus, string> = {
  404: 'Not Found',
  409: 'Conflict',
  422: 'Validation Error',
};

export interface WebhooksIssue {
  code: WebhooksErrorCode;
  detail: string;
  /** JSON pointer into the request body, e.g. `/data/attributes/url`. */
  pointer?: string;
}

/** A request the rules refuse: nothing it wrote stays, and its outcome carries these errors. */
export class WebhooksException extends RequestRefusedError {
  readonly issues: readonly WebhooksIssue[];

  constructor(issue: WebhooksIssue) {
    super(issue.detail);
    this.name = 'WebhooksException';
    this.issues = [issue];
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

  /** Also for an endpoint of another workspace: access to it is reported as not found. */
  static endpointNotFound(id: string): WebhooksException {
    return new WebhooksException({
      code: WebhooksErrorCode.EndpointNotFound,
      detail: `Webhook endpoint ${id} was not found.`,
    });
  }

  static deliveryNotFound(id: string): WebhooksException {
    return new WebhooksException({
      code: WebhooksErrorCode.DeliveryNotFound,
      detail: `Delivery ${id} was not found.`,
    });
  }

  static invalidUrl(detail: string): WebhooksException {
    return new WebhooksException({
      code: WebhooksErrorCode.InvalidUrl,
      detail,
      pointer: '/data/attributes/url',
    });
  }

  static endpointLimit(limit: number): WebhooksException {
    return new WebhooksException({
      code: WebhooksErrorCode.EndpointLimitReached,
      detail: `A workspace can have at most ${limit} webhook endpoints.`,
      pointer: '/data/attributes/url',
    });
  }

  static idInUse(what: string, id: string): WebhooksException {
    return new WebhooksException({
      code: WebhooksErrorCode.IdInUse,
      detail: `${what} id ${id} is already in use.`,
    });
  }
}
