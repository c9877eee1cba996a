import { startFakeChatCompletions, type FakeChatCompletions } from '@cms/testing';

import { ChatModel, chatModelFromEnv, type ChatModelOptions, type ChatRequest } from './chat-model';

let fake: FakeChatCompletions;
/** What the fake's model answers next; null: its echo. */
let nextReply: string | null = null;

beforeAll(async () => {
  fake = await startFakeChatCompletions({
    apiKey: 'sk-test',
    models: ['m-1', 'gpt-4o-mini'],
    reply: (request) => nextReply ?? `You said: ${request.messages.at(-1)?.content ?? ''}`,
  });
});

afterEach(() => {
  fake.failNext(0, 500);
  fake.delay(0);
  nextReply = null;
});

afterAll(() => fake.close());

/** A clock that only moves when the model pauses, and the pauses it took. */
function virtualTime() {
  let now = 0;
  const pauses: number[] = [];
  return {
    pauses,
    now: () => now,
    sleep: (ms: number) => {
      pauses.push(ms);
      now += ms;
      return Promise.resolve();
    },
  };
}

function sut(overrides: Partial<ChatModelOptions> = {}) {
  return new ChatModel({
    baseUrl: fake.baseUrl,
    apiKey: 'sk-test',
    model: 'm-1',
    ...virtualTime(),
    ...overrides,
  });
}

/** The requests the fake received while `run` ran. */
async function requestsDuring<T>(run: () => Promise<T>) {
  const before = fake.requests.length;
  const result = await run();
  return { result, requests: fake.requests.slice(before) };
}

const REQUEST: ChatRequest = {
  instructions: 'Be brief.',
  history: [
    { role: 'user', content: 'Hi' },
    { role: 'assistant', content: 'Hello.' },
    { role: 'user', content: 'Where is my parcel?' },
  ],
  temperature: 0.4,
  maxTokens: 50,
};

describe('the request', () => {
  it('carries the instructions as the system message, then the history in order, the model and the bearer key', async () => {
    const { result, requests } = await requestsDuring(() => sut().answer(REQUEST));
    expect(result).toEqual({ ok: true, content: 'You said: Where is my parcel?' });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers['authorization']).toBe('Bearer sk-test');
    expect(request?.body).toEqual({
      model: 'm-1',
      temperature: 0.4,
      max_tokens: 50,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello.' },
        { role: 'user', content: 'Where is my parcel?' },
      ],
    });
  });

  it('leaves out temperature and max_tokens when the bot has none', async () => {
    const { result, requests } = await requestsDuring(() =>
      sut().answer({ ...REQUEST, temperature: null, maxTokens: null }),
    );
    expect(result.ok).toBe(true);
    expect(requests[0]?.body).not.toHaveProperty('temperature');
    expect(requests[0]?.body).not.toHaveProperty('max_tokens');
  });

  it('sends a temperature of 0 rather than leaving it out', async () => {
    const { requests } = await requestsDuring(() => sut().answer({ ...REQUEST, temperature: 0 }));
    expect(requests[0]?.body).toMatchObject({ temperature: 0 });
  });
});

describe('failures that may pass', () => {
  it('tries again after two 500s, then answers', async () => {
    fake.failNext(2, 500);
    const time = virtualTime();
    const { result, requests } = await requestsDuring(() => sut(time).answer(REQUEST));
    expect(result).toEqual({ ok: true, content: 'You said: Where is my parcel?' });
    expect(requests.map((request) => request.status)).toEqual([500, 500, 200]);
    expect(time.pauses).toHaveLength(2);
  });

  it('waits what Retry-After asks after a 429, then answers', async () => {
    fake.failNext(1, 429, { retryAfter: '2' });
    const time = virtualTime();
    const { result, requests } = await requestsDuring(() => sut(time).answer(REQUEST));
    expect(result.ok).toBe(true);
    expect(requests.map((request) => request.status)).toEqual([429, 200]);
    expect(time.pauses).toEqual([2000]);
  });

  it('pauses longer each time, never more than 10 s, and gives up within its minute', async () => {
    fake.failNext(1000, 503);
    const time = virtualTime();
    const { result, requests } = await requestsDuring(() => sut(time).answer(REQUEST));
    expect(result).toEqual({ ok: false, error: expect.stringContaining('503') as unknown });
    expect(requests.length).toBe(time.pauses.length + 1);
    expect(time.pauses[0]).toBeGreaterThanOrEqual(250);
    expect(time.pauses[0]).toBeLessThanOrEqual(500);
    expect(Math.max(...time.pauses)).toBeLessThanOrEqual(10_000);
    expect(time.pauses.at(-1)).toBeGreaterThanOrEqual(5_000);
    expect(time.pauses.reduce((sum, ms) => sum + ms, 0)).toBeLessThan(60_000);
  });

  it('stops once a small budget is spent, waiting with real pauses', async () => {
    fake.failNext(1000, 502);
    const { result, requests } = await requestsDuring(() =>
      sut({ retryBudgetMs: 1500, now: Date.now, sleep: undefined }).answer(REQUEST),
    );
    expect(result).toEqual({ ok: false, error: expect.stringContaining('502') as unknown });
    expect(requests.length).toBeGreaterThan(1);
  });

  it('times out a slow model, tries again, and gives up when the budget is spent', async () => {
    fake.delay(400);
    const { result, requests } = await requestsDuring(() =>
      sut({
        requestTimeoutMs: 100,
        retryBudgetMs: 1500,
        now: Date.now,
        sleep: () => Promise.resolve(),
      }).answer(REQUEST),
    );
    expect(result).toEqual({
      ok: false,
      error: expect.stringMatching(/did not answer within \d+ ms; gave up after \d+ attempts/) as unknown,
    });
    expect(requests.length).toBeGreaterThan(1);
  });

  it('tries again when the model cannot be reached', async () => {
    const gone = await startFakeChatCompletions({ apiKey: 'sk-test', models: ['m-1'] });
    await gone.close();
    const time = virtualTime();
    const result = await sut({ ...time, baseUrl: gone.baseUrl, retryBudgetMs: 5_000 }).answer(REQUEST);
    expect(result).toEqual({
      ok: false,
      error: expect.stringContaining('could not be reached: fetch failed: ECONNREFUSED') as unknown,
    });
    expect(time.pauses.length).toBeGreaterThan(1);
  });

  it('answers "abandoned" at once when its caller aborts during a pause', async () => {
    fake.failNext(1000, 500);
    const result = await sut({ now: Date.now, sleep: undefined }).answer(REQUEST, AbortSignal.timeout(100));
    expect(result).toEqual({ ok: false, error: 'the call was abandoned' });
  });
});

describe('failures that will not pass', () => {
  it.each([
    ['a bad key (401)', { apiKey: 'sk-wrong' }, REQUEST, '401'],
    ['an unknown model (404)', { model: 'm-404' }, REQUEST, 'model_not_found'],
    ['a request it will not take (400)', {}, { ...REQUEST, temperature: 3 }, '400'],
  ])('answers %s after one request', async (_, options, request, reason) => {
    const time = virtualTime();
    const { result, requests } = await requestsDuring(() => sut({ ...time, ...options }).answer(request));
    expect(result).toEqual({ ok: false, error: expect.stringContaining(reason) as unknown });
    expect(requests).toHaveLength(1);
    expect(time.pauses).toEqual([]);
  });

  it('answers an error for a completion without content, after one request', async () => {
    nextReply = '';
    const { result, requests } = await requestsDuring(() => sut().answer(REQUEST));
    expect(result).toEqual({ ok: false, error: expect.stringContaining('no content') as unknown });
    expect(requests).toHaveLength(1);
  });
});

describe('chatModelFromEnv', () => {
  it('is null without AI_BASE_URL', () => {
    expect(chatModelFromEnv({})).toBeNull();
    expect(chatModelFromEnv({ AI_BASE_URL: '' })).toBeNull();
  });

  it('refuses an AI_BASE_URL that is not an http(s) URL', () => {
    expect(() => chatModelFromEnv({ AI_BASE_URL: 'localhost:8080' })).toThrow(/AI_BASE_URL/);
  });

  it('asks AI_MODEL with AI_API_KEY', async () => {
    const model = chatModelFromEnv({ AI_BASE_URL: fake.baseUrl, AI_API_KEY: 'sk-test', AI_MODEL: 'm-1' });
    const { result, requests } = await requestsDuring(() => model!.answer(REQUEST));
    expect(result.ok).toBe(true);
    expect(requests[0]?.body).toMatchObject({ model: 'm-1' });
  });

  it('asks gpt-4o-mini without AI_MODEL, and sends "Bearer none" without AI_API_KEY', async () => {
    const model = chatModelFromEnv({ AI_BASE_URL: fake.baseUrl });
    const { result, requests } = await requestsDuring(() => model!.answer(REQUEST));
    // The fake wants sk-test: the placeholder is refused, and not tried again.
    expect(result).toEqual({ ok: false, error: expect.stringContaining('401') as unknown });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.headers['authorization']).toBe('Bearer none');
    expect(requests[0]?.body).toMatchObject({ model: 'gpt-4o-mini' });
  });
});

describe('the fake', () => {
  async function post(body: unknown, path = '/chat/completions') {
    const response = await fetch(`${fake.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  }

  const messages = [{ role: 'user', content: 'Hi' }];

  it.each([
    ['no messages', { model: 'm-1', messages: [] }, 'messages'],
    ['an unknown role', { model: 'm-1', messages: [{ role: 'bot', content: 'Hi' }] }, 'messages[0].role'],
    [
      'a content that is not a string',
      { model: 'm-1', messages: [{ role: 'user', content: 1 }] },
      'messages[0].content',
    ],
    ['max_tokens of 0', { model: 'm-1', messages, max_tokens: 0 }, 'max_tokens'],
    ['a temperature above 2', { model: 'm-1', messages, temperature: 2.5 }, 'temperature'],
  ])('answers 400 with OpenAI’s error shape for %s', async (_, body, param) => {
    const answer = await post(body);
    expect(answer).toMatchObject({ status: 400, body: { error: { type: 'invalid_request_error', param } } });
    const { error } = answer.body as { error: Record<string, unknown> };
    expect(Object.keys(error).sort()).toEqual(['code', 'message', 'param', 'type']);
    expect(typeof error['message']).toBe('string');
  });

  it('answers 404 for a path outside the base URL', async () => {
    expect(await post({ model: 'm-1', messages }, '/completions')).toMatchObject({
      status: 404,
      body: { error: { code: 'unknown_url' } },
    });
  });

  it('answers a chat.completion object', async () => {
    expect(await post({ model: 'm-1', messages })).toEqual({
      status: 200,
      body: {
        id: expect.any(String) as unknown,
        object: 'chat.completion',
        created: expect.any(Number) as unknown,
        model: 'm-1',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: 'You said: Hi', refusal: null },
            finish_reason: 'stop',
            logprobs: null,
          },
        ],
        usage: expect.objectContaining({ total_tokens: expect.any(Number) as unknown }) as unknown,
      },
    });
  });
});
