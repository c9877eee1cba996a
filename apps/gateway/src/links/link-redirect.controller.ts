import { randomUUID } from 'node:crypto';

import { JsonApiException, jsonApiErrorObject } from '@cms/http';
import { LOGGER } from '@cms/service-kit';
import { Controller, Get, HttpException, Inject, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { Documented } from '../openapi/documented.decorator';
import { ClickRecorder } from './click-recorder';
import { LinkResolver, type ResolvedLink } from './link-resolver';
import { WindowedBound } from './windowed-bound';

/**
 * A URL as a Location header can carry it: characters outside printable ASCII (an IRI's, a space)
 * percent-encoded, everything else exactly as the message had it.
 */
export function locationOf(url: string): string {
  return url.replace(/[^\x21-\x7E]+/g, (run) => encodeURIComponent(run));
}

const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
};

/**
 * `GET /l/<token>` (extensions §10): a tracked link. No API key: the token is the credential. A click is
 * a redirect first and a record second: the link comes from memory (or one lookup at the messaging
 * service), the 302 is answered, and the click is handed to the log without waiting. `HEAD` redirects
 * and records nothing. Each client address gets LINK_CLICKS_PER_CLIENT counted clicks a second (over
 * 10 s) per replica; past it a link in memory still redirects, uncounted, and one that would need a
 * lookup is 429, so a flood from one client cannot take the edge or the log from everyone else.
 */
@Controller('l')
export class LinkRedirectController {
  private readonly perClient: WindowedBound;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    @Inject(LinkResolver) private readonly links: LinkResolver,
    @Inject(ClickRecorder) private readonly clicks: ClickRecorder,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.perClient = new WindowedBound(config.links.clicksPerClient);
  }

  @Get(':token')
  @Documented({
    tag: 'Links',
    summary: 'Follow a tracked link',
    description:
      'No API key: the token is the credential. 302 to the URL the message had, and the click is counted ' +
      '(HEAD answers the same and counts nothing). An unknown or malformed token is 404. Past ' +
      'LINK_CLICKS_PER_CLIENT clicks a second from one address, a link the gateway holds still redirects ' +
      '(uncounted) and one it would have to look up is 429.',
    answers: {
      302: {
        description: 'To the original URL.',
        headers: {
          Location: {
            description:
              'The original URL (characters a header cannot carry percent-encoded, nothing else changed).',
            schema: { type: 'string' },
          },
          'Cache-Control': { description: '`no-store`: every click comes back.', schema: { type: 'string' } },
        },
      },
      404: { description: 'No tracked link has this address.' },
      429: {
        description: 'Too many clicks from this client for a link the gateway would have to look up.',
        headers: RETRY_AFTER,
      },
      503: {
        description: 'Too many lookups under way, or the messaging service did not answer; retry.',
        headers: RETRY_AFTER,
      },
    },
  })
  async redirect(
    @Param('token') token: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const clickedAt = new Date();
    const bound = this.perClient.take(request.ip);
    if (!bound.allowed) {
      // Many people can share an address (a carrier's NAT, an office): a link already in memory still
      // redirects, uncounted, since answering it costs no more than refusing it; only a click that
      // would need a lookup is refused.
      const known = this.links.known(token);
      if (known === undefined) {
        throw JsonApiException.tooManyRequests(bound.retryAfterSeconds, 'Too many clicks from this client.');
      }
      void reply.status(302).header('location', locationOf(known.url)).header('cache-control', 'no-store');
      if (request.method !== 'HEAD') this.clicks.skipClient();
      return;
    }
    let link: ResolvedLink;
    try {
      const resolved = this.links.resolve(token);
      link = resolved instanceof Promise ? await resolved : resolved;
    } catch (error) {
      if (error instanceof HttpException) throw error;
      // The URL holds the token: the log line never names the path.
      const errorId = randomUUID();
      this.logger.error({ err: error, error_id: errorId }, 'Unhandled error while resolving a tracked link');
      throw new JsonApiException(500, [
        jsonApiErrorObject(500, 'An unexpected error occurred; retry later.', { id: errorId }),
      ]);
    }
    void reply.status(302).header('location', locationOf(link.url)).header('cache-control', 'no-store');
    // Fastify answers HEAD with this route: it redirects the same and is no click.
    if (request.method === 'HEAD') return;
    const userAgent = request.headers['user-agent'] ?? '';
    // Once the answer is on its way (Nest writes it in this turn's promise jobs).
    setImmediate(() => this.clicks.record(link, userAgent, clickedAt));
  }
}
