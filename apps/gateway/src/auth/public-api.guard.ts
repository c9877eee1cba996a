import { JsonApiException, replyWithJsonApiError } from '@cms/http';
import { LOGGER } from '@cms/service-kit';
import {
  Inject,
  Injectable,
  type CanActivate,
  type ExecutionContext,
  type OnModuleInit,
} from '@nestjs/common';
import { HttpAdapterHost, Reflector } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { RateLimitService, type RateLimitBucket } from '../rate-limit/rate-limit.service';
import { ApiKeyAuthenticator } from './api-key.authenticator';
import type { PrincipalRequest } from './principal';
import { PUBLIC_ROUTE, RATE_LIMIT_BUCKET_CONFIG, type PublicRouteRule } from './public-route.decorator';

/** Every request under this prefix is a public API request, whether a route matches it or not. */
const PUBLIC_API_PREFIX = '/api/v1';

function isPublicApiRequest(url: string): boolean {
  if (!url.startsWith(PUBLIC_API_PREFIX)) return false;
  const next = url.charAt(PUBLIC_API_PREFIX.length);
  return next === '' || next === '/' || next === '?';
}

/** The route's own bucket when a route matched; an unknown path or method counts as an API request. */
function bucketOf(request: FastifyRequest): RateLimitBucket {
  // Route config is the plugins' typed members and ours, read by name.
  const config = request.routeOptions.config as unknown as Partial<Record<string, unknown>> | undefined;
  return config?.[RATE_LIMIT_BUCKET_CONFIG] === 'events' ? 'events' : 'api';
}

/**
 * The door of the public API, in the documented order: a valid key (401), the rate limit of the
 * route's bucket (429), the workspace's plan (403), the key's permission (403).
 *
 * The first two run in a Fastify `onRequest` hook for every request under /api/v1, before the body
 * is read and whether or not a route matches: every answer to a valid key — a 400 for bad JSON, 404,
 * 405, 413, 415 and 422 included — then carries X-RateLimit-Limit and X-RateLimit-Remaining, and is
 * counted (extensions §1). A Nest guard alone runs only after the body parsed and never for an unknown
 * route. Plan and permission stay here, in the guard, because they depend on the route's rule.
 */
@Injectable()
export class PublicApiGuard implements CanActivate, OnModuleInit {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
    @Inject(ApiKeyAuthenticator) private readonly authenticator: ApiKeyAuthenticator,
    @Inject(RateLimitService) private readonly rateLimits: RateLimitService,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Nest calls this before the server is ready, when Fastify still takes hooks for every route. */
  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onRequest', async (request, reply) => {
      if (!isPublicApiRequest(request.url)) return undefined;
      await this.admit(request, reply);
      // Answered (401, 429, or a dependency away): Fastify stops here, before reading the body.
      return reply.sent ? reply : undefined;
    });
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.getAllAndOverride<PublicRouteRule | undefined>(PUBLIC_ROUTE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!rule) return true;
    const principal = context.switchToHttp().getRequest<PrincipalRequest>().principal;
    if (!principal) {
      // Only a route declared outside /api/v1 can get here without the door's hook having run.
      throw new Error(`@PublicRoute() on a route outside ${PUBLIC_API_PREFIX}`);
    }
    // Reads may follow a plan change within the key cache's 5 s; a write is judged by the plan of now.
    const planName =
      rule.feature !== 'events' && rule.permission !== 'read'
        ? await this.authenticator.currentPlan(principal)
        : principal.plan;
    const plan = this.config.plans[planName];
    if (rule.feature === 'api' && !plan.api) {
      throw JsonApiException.forbidden(`The ${planName} plan includes only POST /api/v1/events.`);
    }
    if (rule.feature === 'webhooks' && !plan.webhooks) {
      throw JsonApiException.forbidden(
        `Outbound webhooks are available on the business and agency plans, not on ${planName}.`,
      );
    }
    if (rule.permission !== 'any' && !principal.permissions.has(rule.permission)) {
      throw JsonApiException.forbidden(`This API key lacks the ${rule.permission} permission.`);
    }
    return true;
  }

  /** Key, then rate limit; a refusal is answered here, and Fastify then runs nothing else of the request. */
  private async admit(request: FastifyRequest & PrincipalRequest, reply: FastifyReply): Promise<void> {
    try {
      const principal = await this.authenticator.authenticate(request.headers.authorization);
      request.principal = principal;
      const decision = await this.rateLimits.consume(
        principal.apiKeyId,
        principal.workspaceId,
        bucketOf(request),
      );
      void reply.header('X-RateLimit-Limit', String(decision.limit));
      void reply.header('X-RateLimit-Remaining', String(decision.remaining));
      if (!decision.allowed) throw JsonApiException.tooManyRequests(decision.retryAfterSeconds);
    } catch (error) {
      replyWithJsonApiError(error, request, reply, this.logger);
    }
  }
}
