import { setTimeout as pause } from 'node:timers/promises';

import OpenAI from 'openai';

/**
 * The model AI bots answer with (extensions §12, "AI mode"): one `POST <AI_BASE_URL>/chat/completions`
 * through the official `openai` client, which any OpenAI-compatible server answers. A call that fails
 * for a reason that may pass (the network, a timeout, 408, 409, 429, 5xx) is tried again with growing,
 * jittered pauses (the server's Retry-After when it gives one) until `retryBudgetMs` is spent; any other
 * refusal (a bad key, an unknown model, a request it will not take) is final at once. The client's own
 * retries are off: they would not know the budget.
 */

export interface ChatRequest {
  /** The bot's `ai_instructions`: the system message. */
  instructions: string;
  /** The conversation so far, in order. */
  history: Array<{ role: 'user' | 'assistant'; content: string }>;
  /** Left out of the request when null, as `maxTokens` is. */
  temperature: number | null;
  maxTokens: number | null;
}

/** `error` is a short reason for the logs; a model failure is an answer, never a throw. */
export type ChatAnswer = { ok: true; content: string } | { ok: false; error: string };

export interface ChatModelOptions {
  baseUrl: string;
  /** Empty for a server that wants no key. */
  apiKey: string;
  model: string;
  /** One call's time, its retries included (the spec's minute). */
  retryBudgetMs?: number;
  /** One attempt's longest wait (shortened to what is left of the budget). */
  requestTimeoutMs?: number;
  /** The clock the budget is measured on. */
  now?: () => number;
  /** The pause between attempts; it ends early when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const DEFAULT_AI_MODEL = 'gpt-4o-mini';
const DEFAULT_RETRY_BUDGET_MS = 60_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 20_000;
const FIRST_PAUSE_MS = 500;
const LONGEST_PAUSE_MS = 10_000;
const RETRIED_STATUSES = new Set([408, 409, 429]);
/** The client refuses to start without a key; a server that wants none ignores the header. */
const NO_KEY = 'none';
const LONGEST_REASON = 300;
const BACKSTOP_MS = 1_000;

interface Failure {
  error: string;
  retry: boolean;
  retryAfterMs?: number;
}

function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  return pause(ms, undefined, signal ? { signal } : {}).catch(() => undefined);
}

function short(text: string): string {
  return text.length > LONGEST_REASON ? `${text.slice(0, LONGEST_REASON)}…` : text;
}

/** Retry-After-Ms (what OpenAI sends), else Retry-After in seconds or as an HTTP date. */
function retryAfterMsOf(headers: Headers | undefined, now: number): number | undefined {
  const millis = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(millis) && millis >= 0) return millis;
  const header = headers?.get('retry-after');
  if (header === null || header === undefined) return undefined;
  const seconds = Number.parseFloat(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The innermost reason a connection failed ("fetch failed" says little; ECONNREFUSED says more). */
function causeOf(error: Error): string {
  const reasons: string[] = [];
  for (let cause: unknown = error.cause; typeof cause === 'object' && cause !== null && reasons.length < 3;) {
    const { message, code } = cause as { message?: unknown; code?: unknown };
    if (typeof code === 'string') reasons.push(code);
    else if (typeof message === 'string' && message !== '') reasons.push(message);
    cause = (cause as { cause?: unknown }).cause;
  }
  return reasons.length === 0 ? error.message : reasons.join(': ');
}

function failureOf(error: unknown, now: number): Failure {
  if (error instanceof OpenAI.APIError && error.status !== undefined) {
    const retryAfterMs = retryAfterMsOf(error.headers, now);
    const code = typeof error.code === 'string' ? ` (${error.code})` : '';
    return {
      error: short(`the model answered ${error.message}${code}`),
      retry: RETRIED_STATUSES.has(error.status) || error.status >= 500,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  }
  if (error instanceof OpenAI.APIConnectionError)
    return { error: short(`the model could not be reached: ${causeOf(error)}`), retry: true };
  // A 200 whose body is not a completion: a proxy in the way, which may pass.
  const message = error instanceof Error ? error.message : String(error);
  return { error: short(`the model's answer could not be read: ${message}`), retry: true };
}

export class ChatModel {
  private readonly client: OpenAI;
  private readonly retryBudgetMs: number;
  private readonly requestTimeoutMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(private readonly options: ChatModelOptions) {
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.retryBudgetMs = options.retryBudgetMs ?? DEFAULT_RETRY_BUDGET_MS;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? sleepUnlessAborted;
    this.client = new OpenAI({
      baseURL: options.baseUrl,
      apiKey: options.apiKey === '' ? NO_KEY : options.apiKey,
      // Not read from OPENAI_ORG_ID / OPENAI_PROJECT_ID: the server is AI_BASE_URL's, not OpenAI's.
      organization: null,
      project: null,
      maxRetries: 0,
      // Each attempt ends at its own deadline (see attempt); this is only a backstop.
      timeout: this.requestTimeoutMs + BACKSTOP_MS,
    });
  }

  async answer(request: ChatRequest, signal?: AbortSignal): Promise<ChatAnswer> {
    const body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = {
      model: this.options.model,
      messages: [
        { role: 'system', content: request.instructions },
        ...request.history.map((message) => ({ role: message.role, content: message.content })),
      ],
      ...(request.temperature === null ? {} : { temperature: request.temperature }),
      ...(request.maxTokens === null ? {} : { max_tokens: request.maxTokens }),
    };
    const deadline = this.now() + this.retryBudgetMs;
    for (let attempt = 1; ; attempt += 1) {
      const timeoutMs = Math.ceil(Math.max(1, Math.min(this.requestTimeoutMs, deadline - this.now())));
      const outcome = await this.attempt(body, timeoutMs, signal);
      if ('content' in outcome) return { ok: true, content: outcome.content };
      if (signal?.aborted) return { ok: false, error: 'the call was abandoned' };
      if (!outcome.retry) return { ok: false, error: outcome.error };
      // Retry-After is the earliest the server will take another; backoff keeps a `0` from hammering it.
      const wait = Math.max(outcome.retryAfterMs ?? 0, this.backoff(attempt));
      if (this.now() + wait >= deadline)
        return {
          ok: false,
          error: `${outcome.error}; gave up after ${attempt} attempt${attempt === 1 ? '' : 's'}`,
        };
      await this.sleep(wait, signal);
      if (signal?.aborted) return { ok: false, error: 'the call was abandoned' };
    }
  }

  /** The content of the first choice, or why there is none. */
  private async attempt(
    body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<{ content: string } | Failure> {
    // The attempt's own deadline rather than the client's `timeout`, so a timeout is told apart from a
    // connection that failed wherever the client's errors come from.
    const expiry = AbortSignal.timeout(timeoutMs);
    try {
      const completion = await this.client.chat.completions.create(body, {
        signal: signal ? AbortSignal.any([signal, expiry]) : expiry,
      });
      const choice = completion.choices[0];
      const content = choice?.message.content;
      if (typeof content === 'string' && content.trim() !== '') return { content };
      // Asked again the same way, a model answers alike: the reason (length, content_filter) is final.
      return {
        error: `the model answered no content (finish_reason: ${choice?.finish_reason ?? 'no choice'})`,
        retry: false,
      };
    } catch (error) {
      if (expiry.aborted && !signal?.aborted)
        return { error: `the model did not answer within ${timeoutMs} ms`, retry: true };
      return failureOf(error, this.now());
    }
  }

  /** Doubling from FIRST_PAUSE_MS up to LONGEST_PAUSE_MS, each drawn from its upper half. */
  private backoff(attempt: number): number {
    const ceiling = Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (attempt - 1));
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }
}

/** The model AI_BASE_URL names, or null without one (AI bots then end `ai_unavailable`). */
export function chatModelFromEnv(env: NodeJS.ProcessEnv): ChatModel | null {
  const baseUrl = env['AI_BASE_URL']?.trim() ?? '';
  if (baseUrl === '') return null;
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol))
    throw new Error(`AI_BASE_URL must be an http(s) URL, not ${JSON.stringify(baseUrl)}`);
  return new ChatModel({
    baseUrl,
    apiKey: env['AI_API_KEY'] ?? '',
    model: env['AI_MODEL']?.trim() || DEFAULT_AI_MODEL,
  });
}
