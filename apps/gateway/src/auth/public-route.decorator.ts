import type { Permission } from '@cms/contracts';
import { SetMetadata } from '@nestjs/common';

import type { RateLimitBucket } from '../rate-limit/rate-limit.service';

/** What a public route needs, beyond a valid key (extensions §3). */
export interface PublicRouteRule {
  permission: Permission;
  /** `events` only for POST /api/v1/events, which is counted apart. */
  bucket: RateLimitBucket;
  /** Which plan feature the route belongs to. */
  feature: 'api' | 'events' | 'webhooks';
}

export const PUBLIC_ROUTE = Symbol('PUBLIC_ROUTE');

/** Marks a handler as part of the public API: authenticated, rate-limited, gated by plan and permission. */
export const PublicRoute = (rule: PublicRouteRule): MethodDecorator & ClassDecorator =>
  SetMetadata(PUBLIC_ROUTE, rule);
