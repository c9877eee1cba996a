import { startHarness, type Answer, type Harness } from './gateway.harness';
import { FakeDecider, FakeService, tenant } from './messaging.fixtures';

const PUBLIC_BASE_URL = 'https://hooks.example.test';
/** The workspace and channel the fake messaging service says a verified callback belongs to. */
const WORKSPACE_ID = 77;
const CHANNEL_ID = 7;
const VERIFY_TOKEN = 'meta-verify-token';

type Errors = { errors: Array<{ status: string; title: string; detail: string }> };

interface Verification {
  token: string;
  method: string;
  url: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body_base64: string;
}

function refusal(status: number, title: string, detail: string): { status: number; body: Errors } {
  return { status, body: { errors: [{ status: String(status), title, detail }] } };
}

/** The messaging service's verification, by token, as the real one answers. */
const messaging = new FakeService([
  ({ method, target, body }) => {
    if (method !== 'POST' || target !== '/internal/v1/provider-callbacks/verify') return undefined;
    const { token, query } = body as Verification;
    switch (token) {
      case 'tok-good':
        return { status: 200, body: { data: { workspace_id: WORKSPACE_ID, channel_id: CHANNEL_ID } } };
      case 'tok-meta':
        return query['hub.mode'] === 'subscribe' && query['hub.verify_token'] === VERIFY_TOKEN
          ? { status: 200, body: { data: { handshake: query['hub.challenge'] } } }
          : refusal(403, 'Forbidden', 'hub.verify_token is not the channel’s verify token.');
      case 'tok-unsigned':
        return refusal(401, 'Unauthenticated', 'X-Twilio-Signature does not match.');
      case 'tok-down':
        return { status: 500 };
      default: {
        // `tok-inbound-<workspace>`: a callback holding two inbound messages for that workspace.
        const inbound = /^tok-inbound-(\d+)$/.exec(token);
        if (inbound === null) return undefined;
        const data = { workspace_id: Number(inbound[1]), channel_id: CHANNEL_ID, inbound_messages: 2 };
        return { status: 200, body: { data } };
      }
    }
  },
]);

/** Small for the limit's test; the other tests send far fewer to any one URL. */
const CALLBACKS_PER_URL = 40;

let harness: Harness;
let decider: FakeDecider;

beforeAll(async () => {
  harness = await startHarness({
    PUBLIC_BASE_URL,
    MESSAGING_URL: await messaging.start(),
    PROVIDER_CALLBACKS_PER_URL: String(CALLBACKS_PER_URL),
  });
  decider = new FakeDecider(harness);
  await decider.start();
}, 60000);

afterAll(async () => {
  await decider?.stop();
  await harness?.stop();
  await messaging.stop();
});

function post(
  path: string,
  body: string,
  contentType: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return harness.call('POST', path, { body, headers: { 'content-type': contentType, ...headers } });
}

/** The verification requests the messaging service received since `from`. */
function verifications(from: number): Verification[] {
  return messaging.since(from).map((received) => received.body as Verification);
}

/** A later verified callback was recorded, and the refused ones were not. */
async function expectNotRecorded(refused: Answer[]): Promise<void> {
  const later = await post('/webhook/provider/tok-good', '{}', 'application/json');
  expect(later.status).toBe(200);
  await decider.recordOf(later);
  for (const answer of refused) expect(decider.recorded(answer)).toBe(false);
}

describe('a verified callback', () => {
  it('is checked by the messaging service with what the provider signed, recorded as sent, and answered 200', async () => {
    const before = messaging.received.length;
    const body = '{ "object": "whatsapp_business_account", "entry": [ {"id": "1"} ] }';
    const answer = await post('/webhook/provider/tok-good?source=meta&x=%20y', body, 'application/json', {
      'X-Hub-Signature-256': 'sha256=abc',
    });
    expect([answer.status, answer.body]).toEqual([200, {}]);
    const [verification] = verifications(before);
    expect(verification).toEqual({
      token: 'tok-good',
      method: 'POST',
      url: `${PUBLIC_BASE_URL}/webhook/provider/tok-good?source=meta&x=%20y`,
      query: { source: 'meta', x: ' y' },
      headers: expect.objectContaining({
        'x-hub-signature-256': 'sha256=abc',
        'content-type': 'application/json',
      }),
      body_base64: Buffer.from(body).toString('base64'),
    });
    const record = await decider.recordOf(answer);
    expect(record).toMatchObject({ type: 'provider-callback.received', workspaceid: String(WORKSPACE_ID) });
    expect(record.data).toEqual({
      channel_id: CHANNEL_ID,
      content_type: 'application/json',
      body_base64: Buffer.from(body).toString('base64'),
      received_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it('takes a form-encoded body (Twilio) as its raw bytes', async () => {
    const before = messaging.received.length;
    const body = 'MessageSid=SM123&MessageStatus=delivered&To=%2B15005550006';
    const answer = await post(
      '/webhook/provider/tok-good',
      body,
      'application/x-www-form-urlencoded; charset=utf-8',
      { 'X-Twilio-Signature': 'c2lnbmF0dXJl' },
    );
    expect(answer.status).toBe(200);
    const [verification] = verifications(before);
    expect(verification!.headers['x-twilio-signature']).toBe('c2lnbmF0dXJl');
    expect(Buffer.from(verification!.body_base64, 'base64').toString()).toBe(body);
    expect((await decider.recordOf(answer)).data).toMatchObject({
      content_type: 'application/x-www-form-urlencoded',
      body_base64: Buffer.from(body).toString('base64'),
    });
  });

  it('by GET is recorded with its query string as a form-encoded body', async () => {
    const answer = await harness.call('GET', '/webhook/provider/tok-good?MessageSid=SM9&MessageStatus=read');
    expect(answer.status).toBe(200);
    expect((await decider.recordOf(answer)).data).toMatchObject({
      content_type: 'application/x-www-form-urlencoded',
      body_base64: Buffer.from('MessageSid=SM9&MessageStatus=read').toString('base64'),
    });
  });
});

describe("Meta's subscription handshake", () => {
  it('answers the challenge as text/plain when the verify token matches, recording nothing', async () => {
    const answer = await harness.call(
      'GET',
      `/webhook/provider/tok-meta?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=ch4ll3nge-1158`,
    );
    expect([answer.status, answer.body]).toEqual([200, 'ch4ll3nge-1158']);
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const refused = await harness.call(
      'GET',
      '/webhook/provider/tok-meta?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1',
    );
    expect(refused.status).toBe(403);
    expect((refused.body as Errors).errors[0]).toMatchObject({ status: '403', title: 'Forbidden' });
    await expectNotRecorded([answer, refused]);
  });

  it('mints a contact id for each inbound message the messaging service counted, with the plan limit', async () => {
    const { workspaceId } = await tenant(harness, 'business');
    const body = 'MessageSid=SM9&From=%2B15005550009&Body=hi';
    const answer = await post(
      `/webhook/provider/tok-inbound-${workspaceId}`,
      body,
      'application/x-www-form-urlencoded',
    );
    expect(answer.status).toBe(200);
    const record = await decider.recordOf(answer);
    const data = record.data as { contact_ids: number[]; contact_limit: number };
    expect(data.contact_ids).toHaveLength(2);
    expect(new Set(data.contact_ids).size).toBe(2);
    expect(data.contact_limit).toBe(250_000);
  });
});

describe('a refused callback', () => {
  it("passes the messaging service's 401 and 404 on as JSON:API, recording nothing", async () => {
    const unsigned = await post('/webhook/provider/tok-unsigned', 'a=b', 'application/x-www-form-urlencoded');
    expect(unsigned.status).toBe(401);
    expect(unsigned.headers.get('content-type')).toBe('application/json');
    expect((unsigned.body as Errors).errors).toEqual([
      { status: '401', title: 'Unauthenticated', detail: 'X-Twilio-Signature does not match.' },
    ]);
    const unknown = await post('/webhook/provider/tok-nobody', '{}', 'application/json');
    expect(unknown.status).toBe(404);
    expect((unknown.body as Errors).errors[0]).toMatchObject({ status: '404' });
    await expectNotRecorded([unsigned, unknown]);
  });

  it('answers 413 over 1 MiB and 415 for other media types, asking nobody', async () => {
    const before = messaging.received.length;
    const big = `{"text": "${'x'.repeat(1024 * 1024)}"}`;
    const answers = [
      await post('/webhook/provider/tok-good', big, 'application/json'),
      await post(
        '/webhook/provider/tok-good',
        `a=${'x'.repeat(1024 * 1024)}`,
        'application/x-www-form-urlencoded',
      ),
      await post('/webhook/provider/tok-good', 'hello', 'text/plain'),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([413, 413, 415]);
    expect(messaging.since(before)).toEqual([]);
    await expectNotRecorded(answers);
  });

  it('answers 503 with Retry-After when the messaging service fails, so the provider sends it again', async () => {
    const answer = await post('/webhook/provider/tok-down', '{}', 'application/json');
    expect([answer.status, answer.headers.get('retry-after')]).toEqual([503, '5']);
    await expectNotRecorded([answer]);
  });

  it('answers 429 with Retry-After past the limit of one callback URL, before asking anybody', async () => {
    const counted: Array<[number, string | null]> = [];
    for (let i = 0; i < CALLBACKS_PER_URL; i += 1) {
      const answer = await post('/webhook/provider/tok-flood', '{}', 'application/json');
      counted.push([answer.status, answer.headers.get('x-ratelimit-remaining')]);
    }
    expect(counted).toEqual(
      Array.from({ length: CALLBACKS_PER_URL }, (_, i) => [404, String(CALLBACKS_PER_URL - 1 - i)]),
    );
    const before = messaging.received.length;
    const refused = await post('/webhook/provider/tok-flood', '{}', 'application/json');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((refused.body as Errors).errors[0]).toMatchObject({ status: '429' });
    expect(messaging.since(before)).toEqual([]);
    // Another channel's URL has its own budget.
    expect((await post('/webhook/provider/tok-good', '{}', 'application/json')).status).toBe(200);
  });
});
