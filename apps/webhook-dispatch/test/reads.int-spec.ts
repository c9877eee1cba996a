import { DispatchHarness, workspaceId } from './webhook-dispatch.harness';
import { makeTestCertificates, type TestCertificates } from './tls.fixture';

let tls: TestCertificates;
let harness: DispatchHarness;

beforeAll(async () => {
  tls = makeTestCertificates();
  harness = await DispatchHarness.start({ tls, env: { WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8,::1/128' } });
});

afterAll(async () => {
  await harness?.stop();
  tls?.remove();
});

type Errors = { errors: Array<{ status: string; source?: Record<string, string> }> };

describe('the internal reads of webhook endpoints and deliveries', () => {
  it('answer 422 naming the parameter for text the store cannot compare or a filter they do not have', async () => {
    const ws = workspaceId();
    const { id } = await harness.createEndpoint(ws, 'https://127.0.0.1:9/hook');
    for (const [query, parameter] of [
      ['filter[event_type]=%00', 'filter[event_type]'],
      ['filter[event_type]=%ED%A0%80', 'filter[event_type]'],
      ['filter[status]=%00', 'filter[status]'],
      ['filter[colour]=red', 'filter[colour]'],
      ['per_page=101', 'per_page'],
    ]) {
      const reply = await harness.get<Errors>(`webhook-endpoints/${id}/deliveries?${query}`, ws);
      expect([query, reply.status]).toEqual([query, 422]);
      expect(reply.body.errors[0]!.source).toEqual({ pointer: `/data/attributes/${parameter}`, parameter });
    }
    const list = await harness.get<Errors>('webhook-endpoints?filter[url]=%00', ws);
    expect(list.status).toBe(422);
    expect((await harness.get(`webhook-endpoints/${id}/deliveries`, ws)).status).toBe(200);
  });

  it('answer 404 for an endpoint or delivery id that is not a UUID, before asking the store', async () => {
    const ws = workspaceId();
    const { id } = await harness.createEndpoint(ws, 'https://127.0.0.1:9/hook');
    for (const path of [
      'webhook-endpoints/1',
      'webhook-endpoints/%00',
      `webhook-endpoints/${'a'.repeat(36)}/deliveries`,
      `webhook-endpoints/${id}/deliveries/not-a-uuid`,
      `webhook-endpoints/${id}/deliveries/${id}0`,
    ]) {
      const reply = await harness.get<Errors>(path, ws);
      expect([path, reply.status]).toEqual([path, 404]);
      expect(reply.body.errors[0]!.status).toBe('404');
    }
  });
});
