import { LINK_TOKEN_PATTERN } from '@cms/contracts';
import { JsonApiException } from '@cms/http';
import { Inject, Injectable } from '@nestjs/common';

import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { MESSAGING } from '../messaging-api/messaging-api';
import { UpstreamProxy } from '../proxy/upstream.proxy';
import { LruCache } from './link-cache';

/** What a token names: the link of a message of a workspace, and where it goes. */
export interface ResolvedLink {
  workspaceId: number;
  messageId: string;
  linkIndex: number;
  url: string;
}

/** Lookups of tokens not in the cache that may be under way at once; more are answered 503. */
export const MAX_LOOKUPS_IN_FLIGHT = 256;

/**
 * Where a tracked link goes, from the messaging service's `internal/v1/links/<token>` (through the
 * read proxy's pool and breaker), kept in memory: a token's link never changes, so a hit is answered
 * without any I/O. Concurrent clicks of one token make one lookup. An unknown token is not kept (its
 * message's attempt may be decided a moment later), but a malformed one is refused without a lookup,
 * and the lookups in flight are bounded, so a flood of made-up tokens cannot pile up on the service.
 */
@Injectable()
export class LinkResolver {
  private readonly cache: LruCache<string, ResolvedLink>;
  private readonly inFlight = new Map<string, Promise<ResolvedLink>>();

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    @Inject(UpstreamProxy) private readonly proxy: UpstreamProxy,
  ) {
    this.cache = new LruCache(config.links.cacheSize);
  }

  /** The link when it is in memory, without asking anybody. */
  known(token: string): ResolvedLink | undefined {
    return this.cache.get(token);
  }

  /** The link, from memory when it can be; 404 for an unknown token, 503 when too many are looked up. */
  resolve(token: string): ResolvedLink | Promise<ResolvedLink> {
    const cached = this.cache.get(token);
    if (cached !== undefined) return cached;
    if (!LINK_TOKEN_PATTERN.test(token)) throw unknown();
    const pending = this.inFlight.get(token);
    if (pending !== undefined) return pending;
    if (this.inFlight.size >= MAX_LOOKUPS_IN_FLIGHT) {
      throw JsonApiException.serviceUnavailable(1, 'Too many links are being looked up; retry in a moment.');
    }
    const lookup = this.lookUp(token).finally(() => this.inFlight.delete(token));
    this.inFlight.set(token, lookup);
    return lookup;
  }

  private async lookUp(token: string): Promise<ResolvedLink> {
    const answer = await this.proxy.get(MESSAGING, `links/${token}`, '');
    const data = (answer.body as { data?: Record<string, unknown> } | undefined)?.data;
    if (
      typeof data?.['workspace_id'] !== 'number' ||
      typeof data['message_id'] !== 'string' ||
      typeof data['link_index'] !== 'number' ||
      typeof data['url'] !== 'string'
    ) {
      throw new Error('the messaging service answered a link without its fields');
    }
    const link: ResolvedLink = {
      workspaceId: data['workspace_id'],
      messageId: data['message_id'],
      linkIndex: data['link_index'],
      url: data['url'],
    };
    this.cache.set(token, link);
    return link;
  }
}

function unknown(): JsonApiException {
  return JsonApiException.notFound('No tracked link has this address.');
}
