import { System } from '../src';

type Errors = { errors: Array<{ status: string; title: string; detail: string }> };

/**
 * The gateway on its own: the contacts service is down. Writes are recorded but not answered in time,
 * reads cannot be proxied; both answer 503 with Retry-After instead of hanging or failing with a 500.
 */
let system: System;

beforeAll(async () => {
  system = await System.start(['gateway'], {
    OUTCOME_TIMEOUT_MS: '1500',
    CONTACTS_URL: 'http://127.0.0.1:9',
  });
}, 120000);

afterAll(async () => {
  await system?.stop();
});

describe('when the owning service is down', () => {
  it('answers a write with 503 and Retry-After after OUTCOME_TIMEOUT_MS', async () => {
    const { key } = await system.tenant();
    const started = Date.now();
    const answer = await system.call<Errors>('POST', '/api/v1/tags', { key, body: { name: 'later' } });
    expect(answer.status).toBe(503);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(answer.body.errors[0]).toMatchObject({ status: '503', title: 'Service Unavailable' });
    expect(answer.headers.get('x-ratelimit-limit')).toBe('120');
  });

  it("reports the upstream's breaker as open in /metrics once reads fail fast", async () => {
    const breakerState = async (): Promise<string | undefined> => {
      const text = await (await fetch(`${system.url}/metrics`)).text();
      return /^cms_circuit_breaker_state\{[^}]*upstream="contacts"[^}]*\} (\d+)$/m.exec(text)?.[1];
    };
    expect(await breakerState()).toBe('0');

    const { key } = await system.tenant();
    let failingFast = false;
    for (let i = 0; i < 30 && !failingFast; i += 1) {
      const answer = await system.call<Errors>('GET', '/api/v1/contacts', { key });
      failingFast = answer.body.errors[0]?.detail.includes('is unavailable') ?? false;
    }

    expect(failingFast).toBe(true);
    expect(await breakerState()).toBe('2');
  });

  it('answers every read with 503 JSON:API and Retry-After while the upstream is unreachable', async () => {
    const { key } = await system.tenant();
    for (let i = 0; i < 15; i += 1) {
      const answer = await system.call<Errors>('GET', '/api/v1/contacts', { key });
      expect(answer.status).toBe(503);
      expect(answer.headers.get('content-type')).toBe('application/json');
      expect(answer.headers.get('retry-after')).not.toBeNull();
    }
  });
});

describe('the published reference', () => {
  it('documents every public path with its body schema and its errors', async () => {
    const answer = await system.call<{
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
            responses: Record<string, unknown>;
          }
        >
      >;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    }>('GET', '/openapi.json');
    const { paths, components } = answer.body;
    const expected: Array<[string, string]> = [
      ['/api/v1/events', 'post'],
      ['/api/v1/events', 'get'],
      ['/api/v1/contacts/upsert', 'post'],
      ['/api/v1/contacts/batch', 'post'],
      ['/api/v1/contacts', 'get'],
      ['/api/v1/contacts/{contact_id}', 'get'],
      ['/api/v1/contacts/{contact_id}', 'put'],
      ['/api/v1/contacts/{contact_id}/channels/{channel}', 'put'],
      ['/api/v1/tags', 'post'],
      ['/api/v1/tags', 'get'],
      ['/api/v1/tags/{tag_id}', 'get'],
      ['/api/v1/tags/{tag_id}', 'patch'],
      ['/api/v1/tags/{tag_id}', 'delete'],
      ['/api/v1/tags/sync', 'post'],
      ['/api/v1/tags/attach', 'post'],
      ['/api/v1/tags/detach', 'post'],
      ['/api/v1/channels', 'post'],
      ['/api/v1/channels', 'get'],
      ['/api/v1/channels/{id}', 'get'],
      ['/api/v1/channels/{id}', 'patch'],
      ['/api/v1/channels/{id}', 'delete'],
      ['/api/v1/channels/{id}/push-subscriptions', 'post'],
      ['/api/v1/channels/{id}/sandbox/inbound', 'post'],
      ['/api/v1/templates', 'post'],
      ['/api/v1/templates', 'get'],
      ['/api/v1/templates/{id}', 'get'],
      ['/api/v1/templates/{id}', 'patch'],
      ['/api/v1/templates/{id}', 'delete'],
      ['/api/v1/templates/{id}/render', 'post'],
      ['/api/v1/messages', 'post'],
      ['/api/v1/messages', 'get'],
      ['/api/v1/messages/{id}', 'get'],
    ];
    for (const [path, method] of expected) {
      const operation = paths[path]?.[method];
      expect([path, method, operation !== undefined]).toEqual([path, method, true]);
      expect(Object.keys(operation!.responses)).toEqual(expect.arrayContaining(['401', '403', '429']));
      if (method === 'post' || method === 'put' || method === 'patch') {
        const ref = operation!.requestBody?.content['application/json']?.schema.$ref ?? '';
        const schema = components.schemas[ref.split('/').pop() ?? ''];
        expect([path, method, Object.keys(schema?.properties ?? {}).length > 0]).toEqual([
          path,
          method,
          true,
        ]);
      }
    }
    const event = components.schemas.RecordEventBody!;
    expect(Object.keys(event.properties ?? {})).toEqual(
      expect.arrayContaining(['name', 'contact', 'data', 'occurred_at']),
    );
  });
});
