import { ApiError, NetworkError, consoleFetch, ok, onRateLimitWait } from './api';

describe('the console’s fetch', () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
    jest.useRealTimers();
  });

  it('waits the Retry-After of a 429, says so while it waits, and sends the same request again', async () => {
    jest.useFakeTimers();
    const answers = [
      new Response('{"errors":[]}', { status: 429, headers: { 'retry-after': '3' } }),
      new Response('{"data":{"id":1}}', { status: 200 }),
    ];
    const sent: string[] = [];
    globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
      sent.push(await (input as Request).text());
      return answers.shift()!;
    }) as typeof fetch;
    const waits: Array<number | null> = [];
    const stop = onRateLimitWait((until) => waits.push(until));
    const answered = consoleFetch(
      new Request('http://gateway/api/v1/tags', { method: 'POST', body: '{"name":"a"}' }),
    );
    await jest.advanceTimersByTimeAsync(2_900);
    expect(sent).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(200);
    const response = await answered;
    stop();
    expect(response.status).toBe(200);
    expect(sent).toEqual(['{"name":"a"}', '{"name":"a"}']);
    expect(waits).toHaveLength(2);
    expect(waits[0]).toEqual(expect.any(Number));
    expect(waits[1]).toBeNull();
  });

  it('turns a failed connection into a NetworkError', async () => {
    globalThis.fetch = jest.fn(async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    await expect(consoleFetch(new Request('http://gateway/api/v1/tags'))).rejects.toBeInstanceOf(
      NetworkError,
    );
  });
});

describe('ok()', () => {
  it('hands back the body of a success and throws the problems of an error', async () => {
    await expect(
      ok(Promise.resolve({ data: { id: 1 }, response: new Response(null, { status: 200 }) })),
    ).resolves.toEqual({ id: 1 });
    const refused = ok(
      Promise.resolve({
        error: {
          errors: [
            {
              status: '422',
              title: 'Invalid',
              detail: 'is blank',
              source: { pointer: '/data/attributes/name' },
            },
          ],
        },
        response: new Response(null, { status: 422 }),
      }),
    );
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ status: 422, message: 'is blank' });
  });
});
