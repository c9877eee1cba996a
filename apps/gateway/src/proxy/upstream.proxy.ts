import { JsonApiException, jsonApiErrorObject, type JsonApiErrorObject } from '@cms/http';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import CircuitBreaker from 'opossum';
import type { Logger } from 'pino';
import { Pool } from 'undici';

import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { LOGGER } from '../infrastructure/infrastructure.module';

export interface UpstreamAnswer {
  status: number;
  body: unknown;
}

interface Upstream {
  pool: Pool;
  breaker: CircuitBreaker<[string, string], UpstreamAnswer>;
}

/** Seconds a client waits when an upstream is unreachable or its breaker is open. */
const RETRY_AFTER_SECONDS = 5;

/**
 * Reads go to the owning service's internal port (DESIGN §3): one keep-alive pool and one opossum
 * breaker per upstream, so a sick service fails fast with 503 instead of tying up the gateway.
 * 4xx answers are the service's own verdict and pass through; they never trip the breaker.
 */
@Injectable()
export class UpstreamProxy implements OnApplicationShutdown {
  private readonly upstreams = new Map<string, Upstream>();

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** GET `<service>/internal/v1/<path>?<query>` on behalf of a workspace. */
  async get(service: string, path: string, query: string, workspaceId: number): Promise<UpstreamAnswer> {
    const upstream = this.upstream(service);
    const target = `/internal/v1/${path}${query ? `?${query}` : ''}`;
    let answer: UpstreamAnswer;
    try {
      answer = await upstream.breaker.fire(target, String(workspaceId));
    } catch (error) {
      if (upstream.breaker.opened) {
        throw JsonApiException.serviceUnavailable(
          RETRY_AFTER_SECONDS,
          `The ${service} service is unavailable; retry later.`,
        );
      }
      this.logger.warn({ err: error, service, target }, 'upstream request failed');
      throw JsonApiException.serviceUnavailable(
        RETRY_AFTER_SECONDS,
        `The ${service} service did not answer; retry later.`,
      );
    }
    if (answer.status >= 400) {
      // The service's own verdict (404 for another workspace's object, 422 for a bad filter), answered
      // through the gateway's error filter like every other error.
      const errors = (answer.body as { errors?: JsonApiErrorObject[] } | undefined)?.errors;
      throw new JsonApiException(
        answer.status,
        Array.isArray(errors) && errors.length > 0
          ? errors
          : [jsonApiErrorObject(answer.status, `The ${service} service refused the request.`)],
      );
    }
    return answer;
  }

  breakerStates(): Record<string, 'closed' | 'open' | 'half-open'> {
    return Object.fromEntries(
      [...this.upstreams].map(([service, { breaker }]) => [
        service,
        breaker.opened ? 'open' : breaker.halfOpen ? 'half-open' : 'closed',
      ]),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    for (const { pool, breaker } of this.upstreams.values()) {
      breaker.shutdown();
      await pool.close();
    }
  }

  private upstream(service: string): Upstream {
    const existing = this.upstreams.get(service);
    if (existing) return existing;
    const base = this.config.upstreams[service];
    if (!base) throw new Error(`no URL is configured for the ${service} service`);
    const pool = new Pool(base, {
      connections: 64,
      keepAliveTimeout: 30_000,
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    const call = async (target: string, workspaceId: string): Promise<UpstreamAnswer> => {
      const response = await pool.request({
        method: 'GET',
        path: target,
        headers: { 'x-workspace-id': workspaceId, accept: 'application/json' },
      });
      const text = await response.body.text();
      if (response.statusCode >= 500) throw new Error(`${service} answered ${response.statusCode}`);
      return { status: response.statusCode, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
    };
    const breaker = new CircuitBreaker(call, {
      name: service,
      timeout: 10_000,
      errorThresholdPercentage: 50,
      volumeThreshold: 10,
      resetTimeout: 5_000,
    });
    breaker.on('open', () => this.logger.warn({ service }, 'circuit breaker opened'));
    breaker.on('close', () => this.logger.info({ service }, 'circuit breaker closed'));
    const upstream = { pool, breaker };
    this.upstreams.set(service, upstream);
    return upstream;
  }
}
