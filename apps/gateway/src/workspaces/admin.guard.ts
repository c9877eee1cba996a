import { createHash, timingSafeEqual } from 'node:crypto';

import { JsonApiException } from '@cms/http';
import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';

import { GATEWAY_CONFIG, type GatewayConfig } from '../config';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** The operator API: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time. */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.expected = digest(config.adminToken);
  }

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>()
      .headers.authorization;
    const token = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
    if (!token || !timingSafeEqual(digest(token), this.expected)) {
      throw JsonApiException.unauthenticated('A valid operator token is required.');
    }
    return true;
  }
}
