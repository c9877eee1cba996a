import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

import { JsonApiException } from '../errors/json-api.exception';
import { parseIdentifier } from '../identifiers/identifier';

/** The header the gateway scopes a proxied read with, once it authenticated the caller. */
export const WORKSPACE_HEADER = 'x-workspace-id';

/** The workspace a read is scoped to; a read without one is refused with 400. */
export function workspaceIdFrom(value: string | string[] | undefined): number {
  const id = typeof value === 'string' ? parseIdentifier(value.trim()) : undefined;
  if (id === undefined) {
    throw JsonApiException.badRequest(`The ${WORKSPACE_HEADER} header must carry one workspace id.`);
  }
  return id;
}

/** `@WorkspaceId() workspaceId: number` in a service's internal read controllers. */
export const WorkspaceId = createParamDecorator((_data: unknown, context: ExecutionContext): number => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  return workspaceIdFrom(request.headers[WORKSPACE_HEADER]);
});
