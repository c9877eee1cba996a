import { JsonApiException } from '@cms/http';
import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { ApiKeyAuthenticator } from './api-key.authenticator';
import type { PrincipalRequest } from './principal';
import { PUBLIC_ROUTE, type PublicRouteRule } from './public-route.decorator';

/**
 * The door of every public route, in this order: a valid key (401), the rate limit that applies to
 * the route (429; its headers go on every answer from here on, errors included), the workspace's plan
 * (403), the key's permission (403).
 */
@Injectable()
export class PublicApiGuard implements CanActivate {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(ApiKeyAuthenticator) private readonly authenticator: ApiKeyAuthenticator,
    @Inject(RateLimitService) private readonly rateLimits: RateLimitService,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.getAllAndOverride<PublicRouteRule | undefined>(PUBLIC_ROUTE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!rule) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & PrincipalRequest>();
    const reply = http.getResponse<FastifyReply>();

    const principal = await this.authenticator.authenticate(request.headers.authorization);
    request.principal = principal;

    const decision = await this.rateLimits.consume(principal.apiKeyId, principal.workspaceId, rule.bucket);
    void reply.header('X-RateLimit-Limit', String(decision.limit));
    void reply.header('X-RateLimit-Remaining', String(decision.remaining));
    if (!decision.allowed) throw JsonApiException.tooManyRequests(decision.retryAfterSeconds);

    const plan = this.config.plans[principal.plan];
    if (rule.feature === 'api' && !plan.api) {
      throw JsonApiException.forbidden(`The ${principal.plan} plan includes only POST /api/v1/events.`);
    }
    if (rule.feature === 'webhooks' && !plan.webhooks) {
      throw JsonApiException.forbidden(
        `Outbound webhooks are available on the business and agency plans, not on ${principal.plan}.`,
      );
    }
    if (!principal.permissions.has(rule.permission)) {
      throw JsonApiException.forbidden(`This API key lacks the ${rule.permission} permission.`);
    }
    return true;
  }
}
