import { JsonApiException, parseIdentifier } from '@cms/http';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

export const WORKSPACE_HEADER = 'x-workspace-id';

/** The workspace a read is scoped to, set by the gateway after it authenticated the caller. */
export function workspaceIdFrom(value: string | string[] | undefined): number {
  const id = typeof value === 'string' ? parseIdentifier(value.trim()) : undefined;
  if (id === undefined) {
    throw JsonApiException.badRequest(`The ${WORKSPACE_HEADER} header must carry one workspace id.`);
  }
  return id;
}

export const WorkspaceId = createParamDecorator((_data: unknown, context: ExecutionContext): number => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  return workspaceIdFrom(request.headers[WORKSPACE_HEADER]);
});
