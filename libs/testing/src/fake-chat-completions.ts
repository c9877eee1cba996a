import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as pause } from 'node:timers/promises';

/**
 * A local fake of the OpenAI chat completions API (`POST <base>/chat/completions`) that checks what the
 * real one checks — the bearer key, a known model, messages with known roles and string contents, a
 * positive integer `max_tokens`, a `temperature` from 0 to 2 — and answers as it answers: a
 * chat.completion object, or an error object (`{error: {message, type, param, code}}`) with the real
 * status and code. Streaming is not faked: `stream: true` is refused with a 400.
 */

export interface ChatCompletionsRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  temperature?: number;
  max_tokens?: number;
  [other: string]: unknown;
}

export interface RecordedChatRequest {
  method: string;
  /** The path as asked, the base path included. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (null when it was not JSON). */
  body: unknown;
  /** The status the fake answers (0 while `reply` is still writing it). */
  status: number;
}

export interface FakeChatCompletionsOptions {
  apiKey: string;
  /** The models it knows; any other is answered 404 `model_not_found`. */
  models: string[];
  /** The assistant's content; by default `You said: <the last user message>`. */
  reply?: (request: ChatCompletionsRequest) => string | Promise<string>;
  /** The path the base URL ends in; `/v1` as OpenAI's does unless told. */
  basePath?: string;
  /** 0 (any free port) unless told. */
  port?: number;
}

export interface FailureScript {
  /** Sent as the Retry-After header. */
  retryAfter?: string;
}

export interface FakeChatCompletions {
  /** What AI_BASE_URL is set to: `http://127.0.0.1:<port><basePath>`. */
  baseUrl: string;
  /** Every request that came, refused or not, in order (recorded when it came, before any delay). */
  requests: RecordedChatRequest[];
  /** How many requests came: `requests.length`. */
  readonly received: number;
  /** Answers the next `count` well-formed requests with `status` and OpenAI's error body for it. */
  failNext(count: number, status: number, script?: FailureScript): void;
  /** Holds every answer `ms` before sending it (0: at once). */
  delay(ms: number): void;
  close(): Promise<void>;
}

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);

interface ErrorBody {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

function invalid(message: string, param: string | null = null, code: string | null = null): ErrorBody {
  return { message, type: 'invalid_request_error', param, code };
}

/** The body OpenAI answers a status with that stands for the server's trouble, not the request's. */
function scriptedError(status: number): ErrorBody {
  if (status === 429)
    return {
      message: 'Rate limit reached for requests. Please try again in 1s.',
      type: 'requests',
      param: null,
      code: 'rate_limit_exceeded',
    };
  if (status >= 500)
    return {
      message: 'The server had an error while processing your request. Sorry about that!',
      type: 'server_error',
      param: null,
      code: null,
    };
  return invalid(`Scripted failure ${status}.`);
}

async function textOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first thing the real API answers 400 for, or null. */
function problemOf(body: Record<string, unknown>): ErrorBody | null {
  if (typeof body['model'] !== 'string') return invalid('you must provide a model parameter', 'model');
  const messages = body['messages'];
  if (!Array.isArray(messages) || messages.length === 0)
    return invalid("Invalid 'messages': empty array. Expected an array with minimum length 1.", 'messages');
  for (const [i, message] of messages.entries()) {
    if (!isRecord(message) || typeof message['role'] !== 'string' || !ROLES.has(message['role']))
      return invalid(`Invalid value for 'messages[${i}].role'.`, `messages[${i}].role`, 'invalid_value');
    if (typeof message['content'] !== 'string')
      return invalid(
        `Invalid type for 'messages[${i}].content': expected a string.`,
        `messages[${i}].content`,
      );
  }
  const tokens = body['max_tokens'];
  if (tokens !== undefined && !(typeof tokens === 'number' && Number.isInteger(tokens) && tokens > 0))
    return invalid(
      "Invalid 'max_tokens': expected an integer of at least 1.",
      'max_tokens',
      'integer_below_min_value',
    );
  const temperature = body['temperature'];
  if (temperature !== undefined && !(typeof temperature === 'number' && temperature >= 0 && temperature <= 2))
    return invalid(
      "Invalid 'temperature': expected a number from 0 to 2.",
      'temperature',
      'decimal_above_max_value',
    );
  if (body['stream'] === true) return invalid('The fake does not stream.', 'stream');
  return null;
}

function echoLastUserMessage(request: ChatCompletionsRequest): string {
  const last = request.messages.findLast((message) => message.role === 'user');
  return `You said: ${last?.content ?? ''}`;
}

export async function startFakeChatCompletions(
  options: FakeChatCompletionsOptions,
): Promise<FakeChatCompletions> {
  const basePath = (options.basePath ?? '/v1').replace(/\/+$/, '');
  const reply = options.reply ?? echoLastUserMessage;
  const requests: RecordedChatRequest[] = [];
  const closing = new AbortController();
  let failures: { count: number; status: number; script: FailureScript } = {
    count: 0,
    status: 500,
    script: {},
  };
  let delayMs = 0;
  let completions = 0;

  /** The status and body the real API would answer, and the headers that go with them. */
  async function outcomeOf(
    request: IncomingMessage,
    body: unknown,
  ): Promise<{ status: number; body: unknown; headers?: Record<string, string> }> {
    if (request.method !== 'POST' || request.url !== `${basePath}/chat/completions`)
      return {
        status: 404,
        body: {
          error: invalid(`Invalid URL (${request.method ?? ''} ${request.url ?? ''})`, null, 'unknown_url'),
        },
      };
    if (request.headers.authorization !== `Bearer ${options.apiKey}`)
      return {
        status: 401,
        body: { error: invalid('Incorrect API key provided.', null, 'invalid_api_key') },
      };
    if (!isRecord(body))
      return { status: 400, body: { error: invalid('We could not parse the JSON body of your request.') } };
    const problem = problemOf(body);
    if (problem !== null) return { status: 400, body: { error: problem } };
    const model = body['model'] as string;
    if (!options.models.includes(model))
      return {
        status: 404,
        body: {
          error: invalid(
            `The model \`${model}\` does not exist or you do not have access to it.`,
            null,
            'model_not_found',
          ),
        },
      };
    if (failures.count > 0) {
      failures = { ...failures, count: failures.count - 1 };
      const { retryAfter } = failures.script;
      return {
        status: failures.status,
        body: { error: scriptedError(failures.status) },
        ...(retryAfter === undefined ? {} : { headers: { 'retry-after': retryAfter } }),
      };
    }
    const chat = body as ChatCompletionsRequest;
    const content = await reply(chat);
    completions += 1;
    return {
      status: 200,
      body: {
        id: `chatcmpl-fake${completions}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content, refusal: null },
            finish_reason: 'stop',
            logprobs: null,
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      },
    };
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = parsed(await textOf(request));
    const record: RecordedChatRequest = {
      method: request.method ?? '',
      path: request.url ?? '',
      headers: request.headers,
      body,
      status: 0,
    };
    requests.push(record);
    const outcome = await outcomeOf(request, body).catch((failure: unknown) => ({
      status: 500,
      body: { error: { ...scriptedError(500), message: String(failure) } },
    }));
    record.status = outcome.status;
    if (delayMs > 0) await pause(delayMs, undefined, { signal: closing.signal }).catch(() => undefined);
    if (response.destroyed) return;
    response.writeHead(outcome.status, {
      'content-type': 'application/json',
      ...('headers' in outcome ? outcome.headers : {}),
    });
    response.end(JSON.stringify(outcome.body));
  }

  const server = createServer((request, response) => {
    // A request cut off while it was read has no one left to answer.
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${basePath}`,
    requests,
    get received() {
      return requests.length;
    },
    failNext(count, status, script = {}) {
      failures = { count, status, script };
    },
    delay(ms) {
      delayMs = ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        closing.abort();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
