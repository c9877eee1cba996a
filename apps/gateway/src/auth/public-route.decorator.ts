import type { Permission } from '@cms/contracts';
import { addRouteConfig } from '@cms/http';
import { applyDecorators, SetMetadata } from '@nestjs/common';

import type { RateLimitBucket } from '../rate-limit/rate-limit.service';

/** What a public route needs, beyond a valid key (extensions §3). */
export interface PublicRouteRule {
  /** `any`: every valid key of a plan with the feature (a key describing itself). */
  permission: Permission | 'any';
  /** `events` only for POST /api/v1/events, which is counted apart. */
  bucket: RateLimitBucket;
  /** Which plan feature the route belongs to. */
  feature: 'api' | 'events' | 'webhooks';
}

export const PUBLIC_ROUTE = Symbol('PUBLIC_ROUTE');

/** The Fastify route config member that tells the door, before Nest runs, which bucket a route counts in. */
export const RATE_LIMIT_BUCKET_CONFIG = 'rateLimitBucket';

/**
 * Marks a handler as part of the public API: authenticated, rate-limited, gated by plan and permission.
 * The bucket also goes into the Fastify route's config, where PublicApiGuard's request hook reads it.
 */
export const PublicRoute = (rule: PublicRouteRule): MethodDecorator =>
  applyDecorators(
    SetMetadata(PUBLIC_ROUTE, rule),
    addRouteConfig({ [RATE_LIMIT_BUCKET_CONFIG]: rule.bucket }),
  ) as MethodDecorator;
