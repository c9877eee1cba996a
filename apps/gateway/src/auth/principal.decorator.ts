import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

import type { Principal as CallingPrincipal, PrincipalRequest } from './principal';

/** The caller resolved by PublicApiGuard; only on routes marked @PublicRoute. */
export const Caller = createParamDecorator((_data: unknown, context: ExecutionContext): CallingPrincipal => {
  const principal = context.switchToHttp().getRequest<PrincipalRequest>().principal;
  if (!principal) throw new Error('@Caller() used on a route without @PublicRoute()');
  return principal;
});
