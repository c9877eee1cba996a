import { DomainException, type DomainIssue, type StatusOfCode } from '@cms/kafka';

export enum WebhooksErrorCode {
  EndpointNotFound = 'endpoint_not_found',
  DeliveryNotFound = 'delivery_not_found',
  InvalidUrl = 'invalid_url',
  EndpointLimitReached = 'endpoint_limit_reached',
  IdInUse = 'id_in_use',
}

/** Every code has its status; a new code that is not mapped here does not compile. */
const STATUS_OF_CODE: StatusOfCode<WebhooksErrorCode> = {
  [WebhooksErrorCode.EndpointNotFound]: 404,
  [WebhooksErrorCode.DeliveryNotFound]: 404,
  [WebhooksErrorCode.IdInUse]: 409,
  [WebhooksErrorCode.InvalidUrl]: 422,
  [WebhooksErrorCode.EndpointLimitReached]: 422,
};

export type WebhooksIssue = DomainIssue<WebhooksErrorCode>;

/** A request the rules refuse: nothing it wrote stays, and its outcome carries these errors. */
export class WebhooksException extends DomainException<WebhooksErrorCode> {
  constructor(issues: WebhooksIssue | readonly WebhooksIssue[]) {
    super(STATUS_OF_CODE, issues);
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
