import { DomainException, type DomainIssue, type StatusOfCode } from '@cms/kafka';

export enum MessagingErrorCode {
  IdInUse = 'id_in_use',
  NameTaken = 'name_taken',
  ChannelNotFound = 'channel_not_found',
  TemplateNotFound = 'template_not_found',
  /** A field's value the rules refuse (a provider that does not serve the type, a missing credential). */
  InvalidField = 'invalid_field',
  /** A body that does not parse as Liquid. */
  TemplateSyntax = 'template_syntax',
  /** A channel the request needs to be of another type (push subscriptions on browser_push only). */
  WrongChannelType = 'wrong_channel_type',
  UnknownRouteChannel = 'unknown_route_channel',
  NoDefaultChannel = 'no_default_channel',
  UnknownRouteTemplate = 'unknown_route_template',
  RouteTypeMismatch = 'route_type_mismatch',
  NotASandboxChannel = 'not_a_sandbox_channel',
  SuppressionNotFound = 'suppression_not_found',
}

/** Every code has its status; a new code that is not mapped here does not compile. */
const STATUS_OF_CODE: StatusOfCode<MessagingErrorCode> = {
  [MessagingErrorCode.IdInUse]: 409,
  [MessagingErrorCode.NameTaken]: 422,
  [MessagingErrorCode.ChannelNotFound]: 404,
  [MessagingErrorCode.TemplateNotFound]: 404,
  [MessagingErrorCode.InvalidField]: 422,
  [MessagingErrorCode.TemplateSyntax]: 422,
  [MessagingErrorCode.WrongChannelType]: 422,
  [MessagingErrorCode.UnknownRouteChannel]: 422,
  [MessagingErrorCode.NoDefaultChannel]: 422,
  [MessagingErrorCode.UnknownRouteTemplate]: 422,
  [MessagingErrorCode.RouteTypeMismatch]: 422,
  [MessagingErrorCode.NotASandboxChannel]: 404,
  [MessagingErrorCode.SuppressionNotFound]: 404,
};

export type MessagingIssue = DomainIssue<MessagingErrorCode>;

/** A field problem as the API answers it: a JSON pointer into the request body and what is wrong. */
export interface FieldProblem {
  pointer: string;
  detail: string;
}

/** A request the rules refuse: nothing it wrote stays, and its outcome carries these errors. */
export class MessagingException extends DomainException<MessagingErrorCode> {
  constructor(issues: MessagingIssue | readonly MessagingIssue[]) {
    super(STATUS_OF_CODE, issues);
  }

  static idInUse(what: 'Channel' | 'Template', id: number): MessagingException {
    return new MessagingException({
      code: MessagingErrorCode.IdInUse,
      detail: `${what} id ${id} is already in use.`,
    });
  }

  static templateNameTaken(name: string, channel: string): MessagingException {
    return new MessagingException({
      code: MessagingErrorCode.NameTaken,
      detail: `The name ${JSON.stringify(name)} is taken by another ${channel} template of the workspace.`,
      pointer: '/data/attributes/name',
    });
  }

  /** Also for a channel of another workspace: access to it is reported as not found. */
  static channelNotFound(id: number): MessagingException {
    return new MessagingException({
      code: MessagingErrorCode.ChannelNotFound,
      detail: `Channel ${id} was not found.`,
    });
  }

  static templateNotFound(id: number): MessagingException {
    return new MessagingException({
      code: MessagingErrorCode.TemplateNotFound,
      detail: `Template ${id} was not found.`,
    });
  }

  /** One error per problem, each at its pointer. */
  static invalidFields(problems: readonly FieldProblem[]): MessagingException {
    return new MessagingException(
      problems.map(({ pointer, detail }) => ({ code: MessagingErrorCode.InvalidField, detail, pointer })),
    );
  }

  static templateSyntax(problems: readonly FieldProblem[]): MessagingException {
    return new MessagingException(
      problems.map(({ pointer, detail }) => ({ code: MessagingErrorCode.TemplateSyntax, detail, pointer })),
    );
  }

  static notBrowserPush(id: number, type: string): MessagingException {
    return new MessagingException({
      code: MessagingErrorCode.WrongChannelType,
      detail: `Channel ${id} is a ${type} channel; push subscriptions belong to browser_push channels.`,
    });
  }

  /** A sandbox inbound message for a channel that is not a sandbox one, or is no channel of the workspace. */
  static notASandboxChannel(channelId: number): MessagingException {
    return new MessagingException({
      code: MessagingErrorCode.NotASandboxChannel,
      detail: `Sandbox channel ${channelId} was not found.`,
    });
  }

  /** Also for an entry of another workspace: access to it is reported as not found. */
  static suppressionNotFound(id: string): MessagingException {
    return new MessagingException({
      code: MessagingErrorCode.SuppressionNotFound,
      detail: `Suppression ${id} was not found.`,
    });
  }
}
