import { setTimeout as sleep } from 'node:timers/promises';

import { LINK_REQUEST_TYPES, type Envelope } from '@cms/contracts';
import { eventually } from '@cms/testing';

import { startHarness, type Harness } from './gateway.harness';
import { FakeDecider, FakeService } from './messaging.fixtures';

const TOKEN = 'AbCdEfGhIjKlMnOpQrStU0';
const OTHER = 'ZyXwVuTsRqPoNmLkJiHgF1';
const MESSAGE_ID = 'msg_0123456789abcdef0123456789abcdef';
const URL_OF: Record<string, string> = {
  [TOKEN]: 'https://shop.example.com/pay?o=1&a=9.50',
  [OTHER]: 'https://例え.example/パス?q=1',
};
const WORKSPACE_ID = 41;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0';
/** Redirects a client gets a second; the flood test sends more than two windows' worth. */
const PER_CLIENT = 3;

/** The messaging service's link lookups, as the real one answers them; anything else is 404. */
const messaging = new FakeService([
  ({ method, target }) => {
    const token = /^\/internal\/v1\/links\/([^/?]+)$/.exec(target)?.[1];
    if (method !== 'GET' || token === undefined || URL_OF[token] === undefined) return undefined;
    return {
      status: 200,
      body: {
        data: {
          workspace_id: WORKSPACE_ID,
          message_id: MESSAGE_ID,
          link_index: token === TOKEN ? 0 : 1,
          url: URL_OF[token],
        },
      },
    };
  },
]);

let harness: Harness;
let decider: FakeDecider;

beforeAll(async () => {
  harness = await startHarness({
    MESSAGING_URL: await messaging.start(),
    LINK_CLICKS_PER_CLIENT: String(PER_CLIENT),
  });
  decider = new FakeDecider(harness);
  await decider.start();
}, 60000);

afterAll(async () => {
  await decider?.stop();
  await harness?.stop();
  await messaging.stop();
});

/** A click as a browser makes it, without following the redirect. */
async function click(method: 'GET' | 'HEAD', token: string, userAgent = BROWSER) {
  const response = await fetch(`${harness.gateway.url}/l/${token}`, {
    method,
    redirect: 'manual',
    headers: { 'user-agent': userAgent },
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? undefined : (JSON.parse(text) as unknown),
  };
}

function lookups(): number {
  return messaging.received.filter((received) => received.target.startsWith('/internal/v1/links/')).length;
}

/** The clicks recorded so far, each with the record that carried it. */
function clicks(): Array<{ record: Envelope<Record<string, unknown>>; data: Record<string, unknown> }> {
  return decider.records
    .filter((record) => record.type === LINK_REQUEST_TYPES.linkClicks)
    .flatMap((record) =>
      (record as Envelope<{ clicks: Array<Record<string, unknown>> }>).data.clicks.map((data) => ({
        record: record as Envelope<Record<string, unknown>>,
        data,
      })),
    );
}

describe('GET /l/<token>', () => {
  it('redirects 302 to the original URL without an API key, then records the click for its workspace', async () => {
    const before = clicks().length;
    const sentAt = Date.now();
    const answer = await click('GET', TOKEN);
    const answeredAt = Date.now();
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe(URL_OF[TOKEN]);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const recorded = await eventually('the click on the log', async () => clicks()[before]);
    expect(recorded.record).toMatchObject({ source: 'gateway', workspaceid: String(WORKSPACE_ID) });
    expect(recorded.data).toMatchObject({ message_id: MESSAGE_ID, link_index: 0, user_agent: BROWSER });
    // Taken while the click was being answered (the gateway runs in this process, on this clock), and
    // the record's time is its first click's.
    const clickedAt = Date.parse(recorded.data['clicked_at'] as string);
    expect({
      sentAt,
      clickedAt,
      answeredAt,
      between: sentAt <= clickedAt && clickedAt <= answeredAt,
    }).toEqual({ sentAt, clickedAt, answeredAt, between: true });
    expect(recorded.record.time).toBe(
      (recorded.record.data as { clicks: Array<{ clicked_at: string }> }).clicks[0]!.clicked_at,
    );
  });

  it('answers a known token from memory: the messaging service is asked once', async () => {
    const before = lookups();
    for (let i = 0; i < 3; i += 1) expect((await click('GET', TOKEN)).status).toBe(302);
    expect(lookups()).toBe(before);
  });

  it('percent-encodes what a Location header cannot carry, and nothing else', async () => {
    const answer = await click('GET', OTHER);
    expect(answer.headers.get('location')).toBe(
      `https://${encodeURIComponent('例え')}.example/${encodeURIComponent('パス')}?q=1`,
    );
  });

  it('redirects HEAD the same, without recording a click', async () => {
    const head = await click('HEAD', TOKEN, 'head-marker');
    expect(head.status).toBe(302);
    expect(head.headers.get('location')).toBe(URL_OF[TOKEN]);
    await click('GET', TOKEN, 'after-head');
    await eventually(
      'the later click on the log',
      async () => clicks().some((record) => record.data['user_agent'] === 'after-head') || undefined,
    );
    // Records of one client keep their order on the log: the HEAD before it would be there by now.
    expect(clicks().filter((record) => record.data['user_agent'] === 'head-marker')).toEqual([]);
  });

  it('answers 404 (JSON:API) for an unknown token, and a malformed one without asking the service', async () => {
    const unknown = await click('GET', 'AAAAAAAAAAAAAAAAAAAAAA');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/json');
    expect(unknown.body).toMatchObject({ errors: [{ status: '404' }] });
    const before = lookups();
    const malformed = await click('GET', 'not-a-token');
    expect(malformed.status).toBe(404);
    expect(lookups()).toBe(before);
  });

  it(`counts ${PER_CLIENT} clicks a second (over 10 s) of one client; past it a known link still redirects, uncounted, and a lookup is 429`, async () => {
    // The bound counts in fixed windows of the clock (10 s, from a multiple of 10 s): a flood that the
    // end of a window cuts in two is counted by both, so it is sent again, in the window just begun,
    // until one window holds all of it and the lookup after it.
    const windowOf = (at: number) => Math.floor(at / 10_000);
    for (let attempt = 1; ; attempt += 1) {
      const from = Date.now();
      await click('GET', TOKEN);
      await sleep(100);
      const counted = clicks().length;
      const answers = [];
      for (let i = 0; i < PER_CLIENT * 10 * 2 + 5; i += 1) answers.push(await click('GET', TOKEN));
      // Everyone behind one address (a carrier's NAT) still gets where the link goes.
      expect(answers.every((answer) => answer.status === 302)).toBe(true);
      await sleep(100);
      const flooded = clicks().length - counted;
      const lookupsBefore = lookups();
      const unknown = await click('GET', 'QqQqQqQqQqQqQqQqQqQqQ9');
      const to = Date.now();
      if (windowOf(from) !== windowOf(to)) {
        if (attempt < 3) continue;
        throw new Error(`no attempt of ${attempt} fitted in one window of the bound`);
      }

      expect(flooded).toBeLessThan(answers.length);
      expect(flooded).toBeLessThanOrEqual(PER_CLIENT * 10);
      expect(unknown.status).toBe(429);
      expect(Number(unknown.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(unknown.body).toMatchObject({ errors: [{ status: '429' }] });
      expect(lookups()).toBe(lookupsBefore);
      break;
    }
  });
});
