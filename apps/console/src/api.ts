import createClient, { type Client } from 'openapi-fetch';

import type { components, paths } from '@cms/sdk/schema';

/** The resources of the API document, by schema name: `Schema<'Contact'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** One JSON:API error object as the API answers it (specification, Errors). */
export interface Problem {
  status: string;
  title: string;
  detail: string;
  source?: { pointer?: string };
  id?: string;
}

/** The API answered with an error status: its problems, each maybe naming a field by its pointer. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problems: Problem[],
  ) {
    super(problems.map((problem) => problem.detail || problem.title).join(' ') || `HTTP ${status}`);
    this.name = 'ApiError';
  }
}

/** The request never got an answer (the network or the gateway is away): nothing is known to have happened. */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('The network failed before the API answered. Nothing you typed is lost: try again.', { cause });
    this.name = 'NetworkError';
  }
}

/** What the console tells whoever listens while a 429 makes it wait (the banner in the shell). */
export type RateLimitListener = (waitingUntil: number | null) => void;

const rateLimitListeners = new Set<RateLimitListener>();

export function onRateLimitWait(listener: RateLimitListener): () => void {
  rateLimitListeners.add(listener);
  return () => rateLimitListeners.delete(listener);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The most times one request waits out a 429 before its 429 is shown as the answer. */
const MAX_RATE_LIMIT_WAITS = 5;

/**
 * The console's fetch: a network failure becomes a NetworkError, and a 429 waits the Retry-After it
 * names (the banner says so) and sends the same request again.
 */
export async function consoleFetch(request: Request): Promise<Response> {
  for (let waits = 0; ; waits++) {
    let response: Response;
    try {
      response = await fetch(request.clone());
    } catch (error) {
      throw new NetworkError(error);
    }
    if (response.status !== 429 || waits >= MAX_RATE_LIMIT_WAITS) return response;
    const seconds = Number(response.headers.get('retry-after'));
    const waitMs = (Number.isFinite(seconds) && seconds > 0 ? seconds : 1) * 1000;
    for (const listener of rateLimitListeners) listener(Date.now() + waitMs);
    await sleep(waitMs);
    for (const listener of rateLimitListeners) listener(null);
  }
}

/** The typed client of the public API (paths, parameters and bodies of the gateway's document). */
export type Api = Client<paths>;

/** A client that sends `key` as the Bearer header; the console is served by the gateway it calls. */
export function createApi(key: string, baseUrl: string = window.location.origin): Api {
  return createClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${key}` },
    fetch: consoleFetch,
  });
}

interface Answered<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The body of a successful answer; an error answer throws an ApiError with its problems. */
export async function ok<T>(call: Promise<Answered<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  const problems = (error as { errors?: Problem[] } | undefined)?.errors;
  throw new ApiError(
    response.status,
    Array.isArray(problems)
      ? problems
      : [{ status: String(response.status), title: response.statusText, detail: '' }],
  );
}

/** The `meta` of every list answer (extensions §1). */
export interface PageMeta {
  current_page: number;
  per_page: number;
  total: number;
  last_page: number;
}

/** Query parameters as openapi-fetch sends them, for the `filter[...]` members of list routes. */
export type Query = Record<string, string | number | boolean | undefined>;

/** Drops the filters left empty, so a list asks only for what the person typed. */
export function filled(query: Query): Query {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== '' && value !== undefined));
}
