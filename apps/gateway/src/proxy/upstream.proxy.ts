import type { Readable } from 'node:stream';

import {
  currentCorrelationId,
  JsonApiException,
  jsonApiErrorObject,
  REQUEST_ID_HEADER,
  type JsonApiErrorObject,
} from '@cms/http';
import { LOGGER } from '@cms/service-kit';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { context, propagation } from '@opentelemetry/api';
import CircuitBreaker from 'opossum';
import type { Logger } from 'pino';
import { Gauge, Registry } from 'prom-client';
import { Pool, type Dispatcher } from 'undici';

import { GATEWAY_CONFIG, type GatewayConfig } from '../config';

/** The query string of a request as it was sent, without the `?`: what a proxied read passes on. */
export function queryOf(request: FastifyRequest): string {
  const at = request.url.indexOf('?');
  return at === -1 ? '' : request.url.slice(at + 1);
}

export interface UpstreamAnswer {
  status: number;
  body: unknown;
  /** A refusal's Retry-After (delta-seconds), passed on to the client. */
  retryAfter?: string;
}

type BreakerState = 'closed' | 'open' | 'half-open';

/** One call to an upstream's internal port. */
interface UpstreamCall {
  method: 'GET' | 'POST';
  target: string;
  headers: Record<string, string>;
  /** JSON, for a POST; or a stream of another media type (`contentType`), passed on as it arrives. */
  body?: string | Readable;
  contentType?: string;
}

/**
 * The body a client is streaming failed on the client's side (it went away, sent a malformed or an
 * oversized body, stalled): `answer` is what the client is told. Such a failure says nothing about the
 * upstream, so its breaker never counts it.
 */
export class RequestBodyError extends Error {
  constructor(readonly answer: unknown) {
    super('the request body failed on the client side', { cause: answer });
  }
}

interface Upstream {
  pool: Pool;
  breaker: CircuitBreaker<[UpstreamCall], UpstreamAnswer>;
}

/**
 * The clock of a streamed call: none while the body is being sent (its client's pace), then
 * STREAMED_ANSWER_TIMEOUT_MS for the answer. Remembers a failure of the body on the client's side, which
 * is what the call failed of when it did.
 */
function answerTimeoutAfter(body: Readable): {
  signal: AbortSignal;
  clientFailure(): RequestBodyError | undefined;
  done(): void;
} {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let failure: RequestBodyError | undefined;
  const onError = (error: unknown): void => {
    if (error instanceof RequestBodyError) failure ??= error;
  };
  const onEnd = (): void => {
    timer = setTimeout(() => controller.abort(new Error('no answer in time')), STREAMED_ANSWER_TIMEOUT_MS);
  };
  body.on('error', onError);
  body.once('end', onEnd);
  return {
    signal: controller.signal,
    clientFailure: () => failure,
    done: () => {
      clearTimeout(timer);
      body.off('error', onError);
      body.off('end', onEnd);
    },
  };
}

/** `cms_circuit_breaker_state`'s values: higher is worse, so `max` across replicas reads naturally. */
const BREAKER_STATE_VALUE: Record<BreakerState, number> = { closed: 0, 'half-open': 1, open: 2 };

function parseJsonOrUndefined(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

/** Seconds a client waits when an upstream is unreachable or its breaker is open. */
const RETRY_AFTER_SECONDS = 5;

/** How long an upstream has to answer a call, its body included. */
const ANSWER_TIMEOUT_MS = 10_000;

/**
 * How long an upstream has to answer once a streamed body has all been sent: it may have a million rows
 * to store.
 */
const STREAMED_ANSWER_TIMEOUT_MS = 60_000;

/**
 * Reads go to the owning service's internal port (DESIGN §3): one keep-alive pool and one opossum
 * breaker per upstream, so a sick service fails fast with 503 instead of tying up the gateway.
 * 4xx answers are the service's own verdict and pass through; they never trip the breaker. The
 * request's correlation id (X-Request-Id) and trace context go along, so the upstream's log lines and
 * spans join the gateway's.
 */
@Injectable()
export class UpstreamProxy implements OnApplicationShutdown {
  private readonly upstreams = new Map<string, Upstream>();

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(Registry) registry: Registry,
  ) {
    const states: Gauge<'upstream'> = new Gauge({
      name: 'cms_circuit_breaker_state',
      help: 'State of the circuit breaker in front of each upstream: 0 closed, 1 half-open, 2 open.',
      labelNames: ['upstream'] as const,
      registers: [registry],
      collect: () => {
        for (const [upstream, state] of Object.entries(this.breakerStates()))
          states.set({ upstream }, BREAKER_STATE_VALUE[state]);
      },
    });
  }

  /** GET `<service>/internal/v1/<path>?<query>` on behalf of a workspace (none: a tracked link's). */
  get(service: string, path: string, query: string, workspaceId?: number): Promise<UpstreamAnswer> {
    return this.call(service, 'GET', `/internal/v1/${path}${query ? `?${query}` : ''}`, workspaceId);
  }

  /**
   * POST a JSON body to `<service>/internal/v1/<path>`: a read that needs a body (rendering a template)
   * or a question about a request no workspace is known for yet (a provider's callback). Answered,
   * refused and counted by the breaker exactly as a GET is.
   */
  post(service: string, path: string, body: unknown, workspaceId?: number): Promise<UpstreamAnswer> {
    return this.call(service, 'POST', `/internal/v1/${path}`, workspaceId, JSON.stringify(body));
  }

  /**
   * POST a body of `contentType` to `<service>/internal/v1/<path>` as it arrives from the client (an
   * upload), never holding it whole. A body that fails on the client's side (see RequestBodyError)
   * rejects with that error and is not counted by the breaker; everything else is answered, refused
   * and counted as a GET is, except that the upstream's time to answer runs from the end of the body.
   */
  postStream(
    service: string,
    path: string,
    body: Readable,
    contentType: string,
    workspaceId: number,
  ): Promise<UpstreamAnswer> {
    return this.call(service, 'POST', `/internal/v1/${path}`, workspaceId, body, contentType);
  }

  private async call(
    service: string,
    method: UpstreamCall['method'],
    target: string,
    workspaceId: number | undefined,
    body?: string | Readable,
    contentType?: string,
  ): Promise<UpstreamAnswer> {
    const upstream = this.upstream(service);
    const headers: Record<string, string> = {};
    if (workspaceId !== undefined) headers['x-workspace-id'] = String(workspaceId);
    const correlationId = currentCorrelationId();
    if (correlationId !== undefined) headers[REQUEST_ID_HEADER] = correlationId;
    propagation.inject(context.active(), headers);
    let answer: UpstreamAnswer;
    try {
      answer = await upstream.breaker.fire({
        method,
        target,
        headers,
        ...(body !== undefined ? { body } : {}),
        ...(contentType !== undefined ? { contentType } : {}),
      });
    } catch (error) {
      if (error instanceof RequestBodyError) throw error.answer;
      if (upstream.breaker.opened) {
        throw JsonApiException.serviceUnavailable(
          RETRY_AFTER_SECONDS,
          `The ${service} service is unavailable; retry later.`,
        );
      }
      this.logger.warn({ err: error, service, method, target }, 'upstream request failed');
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
        answer.retryAfter !== undefined ? { 'Retry-After': answer.retryAfter } : {},
      );
    }
    return answer;
  }

  /** Every configured upstream; one not called yet has no breaker, which counts as closed. */
  breakerStates(): Record<string, BreakerState> {
    return Object.fromEntries(
      Object.keys(this.config.upstreams).map((service): [string, BreakerState] => {
        const breaker = this.upstreams.get(service)?.breaker;
        if (!breaker) return [service, 'closed'];
        return [service, breaker.opened ? 'open' : breaker.halfOpen ? 'half-open' : 'closed'];
      }),
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
    const call = async ({
      method,
      target,
      headers,
      body,
      contentType,
    }: UpstreamCall): Promise<UpstreamAnswer> => {
      const streamed = typeof body === 'object' ? answerTimeoutAfter(body) : undefined;
      let response: Dispatcher.ResponseData;
      try {
        response = await pool.request({
          method,
          path: target,
          headers: {
            ...headers,
            accept: 'application/json',
            ...(body !== undefined ? { 'content-type': contentType ?? 'application/json' } : {}),
          },
          ...(body !== undefined ? { body } : {}),
          ...(streamed
            ? // The client sets the pace while it streams; the clock runs once it is done.
              { signal: streamed.signal, headersTimeout: 0 }
            : { signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) }),
        });
      } catch (error) {
        throw streamed?.clientFailure() ?? error;
      } finally {
        streamed?.done();
      }
      const text = await response.body.text();
      if (response.statusCode >= 500) throw new Error(`${service} answered ${response.statusCode}`);
      if (response.statusCode >= 400) {
        // A refusal is resolved, never thrown, so the breaker counts it as a success whatever its body:
        // it is the verdict on one workspace's request, and must not close the service to the others.
        const retryAfter = response.headers['retry-after'];
        return {
          status: response.statusCode,
          body: parseJsonOrUndefined(text),
          ...(typeof retryAfter === 'string' && /^\d{1,9}$/.test(retryAfter) ? { retryAfter } : {}),
        };
      }
      return { status: response.statusCode, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
    };
    const breaker = new CircuitBreaker(call, {
      name: service,
      // What `call` throws is a 5xx, a timeout, a reset or refused connection: the service's health.
      // 4xx answers resolve (above), so the breaker never opens because of what one workspace asked,
      // and a body its client broke off is filtered out. Each call keeps its own time (ANSWER_TIMEOUT_MS).
      timeout: false,
      errorFilter: (error: unknown) => error instanceof RequestBodyError,
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
