import {
  LINK_FACT_TYPES,
  LINK_REQUEST_TYPES,
  MESSAGING_REQUEST_TYPES,
  requestEnvelope,
  type DecodedRecord,
  type Envelope,
  type LinkClickV1,
} from '@cms/contracts';
import type { RecordContext } from '@cms/kafka';
import { eventually } from '@cms/testing';
import type { EntityManager } from 'typeorm';

import { MessagesChunk } from '../src/messages/chunk/messages-chunk';
import { messageIdOfRecord } from '../src/messages/message-ids';
import { MessageRequests } from '../src/messages/message-requests';
import { MessagesFixture, sleep, type MessageBody } from './support/messages.fixture';
import { MessagingHarness } from './support/messaging.harness';

const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
const TRACKED = /https:\/\/api\.example\.test\/l\/([A-Za-z0-9_-]{22})/g;

interface Link {
  url: string;
  link_index: number;
  clicks: number;
  bot_clicks: number;
  first_clicked_at: string | null;
}

describe('tracked links: rewriting at send, resolving, and deciding clicks', () => {
  let harness: MessagingHarness;
  let fixture: MessagesFixture;

  beforeAll(async () => {
    harness = await MessagingHarness.start({ SANDBOX_STATUS_DELAY_MS: '40', SEND_WORKER_POLL_MS: '20' });
    fixture = new MessagesFixture(harness);
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  /** A delivered sandbox SMS of `body` to a new contact, in a workspace of its own. */
  async function delivered(body: string, trackLinks = true) {
    const workspaceId = harness.workspace();
    await fixture.channel(workspaceId, 'sms');
    const templateId = await fixture.template(workspaceId, 'sms', body);
    if (!trackLinks)
      await harness.kit.db.query('UPDATE templates SET track_links = false WHERE id = $1', [templateId]);
    const contactId = harness.id();
    await harness.contacts(workspaceId, { id: contactId, name: 'Ada', phone: '+15550000' });
    const id = await fixture.sent(workspaceId, {
      contact_id: contactId,
      route: [{ channel: 'sms', template_id: templateId }],
    });
    const message = await fixture.untilStatus(workspaceId, id, 'delivered');
    return { workspaceId, contactId, id, message };
  }

  function tokensOf(message: MessageBody): string[] {
    return [...(message.body ?? '').matchAll(TRACKED)].map((match) => match[1]!);
  }

  /** A click as the gateway takes it, `afterSendMs` after the message's sent_at. */
  function clickOf(
    message: MessageBody,
    linkIndex: number,
    afterSendMs: number,
    userAgent = BROWSER,
  ): LinkClickV1 {
    return {
      message_id: message.id,
      link_index: linkIndex,
      user_agent: userAgent,
      clicked_at: new Date(new Date(message.sent_at!).getTime() + afterSendMs).toISOString(),
    };
  }

  /** A record of clicks, as the gateway records those of a workspace it took together. */
  function clicks(workspaceId: number, ...taken: LinkClickV1[]): Envelope {
    return requestEnvelope(
      LINK_REQUEST_TYPES.linkClicks,
      { clicks: taken },
      { source: 'gateway', workspaceid: String(workspaceId) },
    );
  }

  /** A record of one click. */
  function click(
    workspaceId: number,
    message: MessageBody,
    linkIndex: number,
    afterSendMs: number,
    userAgent = BROWSER,
  ): Envelope {
    return clicks(workspaceId, clickOf(message, linkIndex, afterSendMs, userAgent));
  }

  function linksWhen(
    workspaceId: number,
    id: string,
    what: string,
    check: (links: Link[]) => boolean,
  ): Promise<Link[]> {
    return fixture
      .until(workspaceId, id, what, (message) => check(message.links as Link[]))
      .then((message) => message.links as Link[]);
  }

  function clickedFacts(id: string): Envelope<Record<string, unknown>>[] {
    return harness.kit
      .recordsOn(harness.kit.topics.messaging)
      .filter((fact) => fact.type === LINK_FACT_TYPES.linkClicked && fact.data['message_id'] === id);
  }

  it('sends the body with its links tracked, lists them on the message, and resolves each token to its URL', async () => {
    const { workspaceId, message } = await delivered(
      'Hi {{ contact.name }}, pay at https://shop.example.com/pay?o=1&a=9.50. Help: https://help.example.com!',
    );
    const tokens = tokensOf(message);
    expect(tokens).toHaveLength(2);
    expect(message.body).toBe(
      `Hi Ada, pay at https://api.example.test/l/${tokens[0]}. Help: https://api.example.test/l/${tokens[1]}!`,
    );
    expect(message.links).toEqual([
      expect.objectContaining({
        url: 'https://shop.example.com/pay?o=1&a=9.50',
        link_index: 0,
        clicks: 0,
        bot_clicks: 0,
      }),
      expect.objectContaining({ url: 'https://help.example.com', link_index: 1, clicks: 0, bot_clicks: 0 }),
    ]);
    const resolved = await harness.call('GET', `links/${tokens[1]}`, 0);
    expect(resolved).toEqual({
      status: 200,
      body: {
        data: {
          workspace_id: workspaceId,
          message_id: message.id,
          link_index: 1,
          url: 'https://help.example.com',
        },
      },
    });
    const listed = await harness.get<{ data: MessageBody[] }>('messages', workspaceId);
    expect(listed.body.data[0]!.links).toEqual(message.links);
  });

  it('answers 404 for an unknown or malformed token', async () => {
    expect((await harness.call('GET', 'links/AAAAAAAAAAAAAAAAAAAAAA', 0)).status).toBe(404);
    expect((await harness.call('GET', 'links/not-a-token', 0)).status).toBe(404);
  });

  it('leaves the body as rendered when the template does not track links, and a body without a URL alone', async () => {
    const untracked = await delivered('See https://example.com/x', false);
    expect(untracked.message.body).toBe('See https://example.com/x');
    expect(untracked.message.links).toEqual([]);
    const plain = await delivered('Hi {{ contact.name }}');
    expect(plain.message.body).toBe('Hi Ada');
    expect(plain.message.links).toEqual([]);
  });

  it('counts clicks too soon after the send and those of scanners as bot clicks, sending nothing', async () => {
    const { workspaceId, id, message } = await delivered('Go https://shop.example.com/a');
    await harness.kit.publish(harness.kit.topics.requests, [
      click(workspaceId, message, 0, 300),
      click(workspaceId, message, 0, 1_999),
      click(workspaceId, message, 0, 60_000, 'facebookexternalhit/1.1 Facebot Twitterbot/1.0'),
      click(workspaceId, message, 0, 60_000, 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'),
      click(workspaceId, message, 0, 60_000, ''),
    ]);
    const links = await linksWhen(workspaceId, id, 'has 5 bot clicks', (found) => found[0]?.bot_clicks === 5);
    expect(links[0]).toMatchObject({ clicks: 0, bot_clicks: 5, first_clicked_at: null });
    await sleep(300);
    expect(clickedFacts(id)).toEqual([]);
  });

  it("sends link.clicked once per link, at its first person's click, and counts every click after", async () => {
    const { workspaceId, contactId, id, message } = await delivered(
      'A https://shop.example.com/a B https://shop.example.com/b',
    );
    const firstAt = new Date(new Date(message.sent_at!).getTime() + 5_000).toISOString();
    await harness.kit.publish(harness.kit.topics.requests, [
      click(workspaceId, message, 0, 100, BROWSER),
      // Several clicks in one record, as the gateway records those it took together.
      clicks(
        workspaceId,
        clickOf(message, 0, 5_000),
        clickOf(message, 0, 9_000),
        clickOf(message, 0, 12_000, 'curl/8.4.0'),
      ),
      click(workspaceId, message, 0, 15_000),
      click(workspaceId, message, 1, 20_000),
      // A link the message does not have changes nothing.
      click(workspaceId, message, 7, 20_000),
    ]);
    const links = await linksWhen(
      workspaceId,
      id,
      'has its clicks counted',
      (found) => found[0]?.clicks === 3 && found[1]?.clicks === 1,
    );
    expect(
      links.map(({ clicks, bot_clicks, first_clicked_at }) => ({ clicks, bot_clicks, first_clicked_at })),
    ).toEqual([
      { clicks: 3, bot_clicks: 2, first_clicked_at: firstAt },
      {
        clicks: 1,
        bot_clicks: 0,
        first_clicked_at: new Date(new Date(message.sent_at!).getTime() + 20_000).toISOString(),
      },
    ]);
    const facts = await eventually('both link.clicked facts', async () => {
      const found = clickedFacts(id);
      return found.length >= 2 ? found : undefined;
    });
    await sleep(300);
    expect(clickedFacts(id)).toHaveLength(2);
    expect(facts[0]!.data).toEqual({
      message_id: id,
      url: 'https://shop.example.com/a',
      link_index: 0,
      contact: { id: contactId, external_id: null, name: 'Ada', phone: '+15550000', email: null },
      channel: 'sms',
      workflow: null,
      campaign_id: null,
      clicked_at: firstAt,
      user_agent: BROWSER,
    });
    expect(facts[1]!.data).toMatchObject({ url: 'https://shop.example.com/b', link_index: 1 });
  });

  it('decides clicks in a chunk exactly as one at a time, the attempt that made the links among them', async () => {
    const workspaceId = harness.workspace();
    await fixture.channel(workspaceId, 'sms');
    const templateId = await fixture.template(workspaceId, 'sms', 'x');
    const contactId = harness.id();
    await harness.contacts(workspaceId, { id: contactId, name: 'Ada', phone: '+15550000' });
    const base = Date.parse('2026-11-24T10:00:00.000Z');
    const at = (ms: number): string => new Date(base + ms).toISOString();
    const record = (type: string, data: object, time: string): DecodedRecord =>
      ({ ...harness.kit.envelope(type, workspaceId, data, { time }), writtenVersion: 1 }) as DecodedRecord;
    const send = record(
      MESSAGING_REQUEST_TYPES.messageSend,
      { contact_id: contactId, route: [{ channel: 'sms', template_id: templateId }] },
      at(0),
    );
    const id = messageIdOfRecord(send.id);
    const clickAt = (index: number, ms: number, agent = BROWSER): DecodedRecord =>
      record(
        LINK_REQUEST_TYPES.linkClicks,
        { clicks: [{ message_id: id, link_index: index, user_agent: agent, clicked_at: at(ms) }] },
        at(ms),
      );
    const records = [
      send,
      record(
        MESSAGING_REQUEST_TYPES.messageAttempt,
        {
          message_id: id,
          outcome: 'sent',
          recipient: '+15550000',
          body: 'tracked',
          links: [{ url: 'https://a.example' }, { url: 'https://b.example' }],
          attempted_at: at(1_000),
        },
        at(1_000),
      ),
      clickAt(0, 1_500),
      clickAt(0, 5_000),
      clickAt(0, 6_000, 'Twitterbot/1.0'),
      clickAt(1, 7_000),
      clickAt(0, 8_000),
      clickAt(5, 9_000),
    ];
    const requests = harness.service.app.get(MessageRequests);
    const chunk = harness.service.app.get(MessagesChunk);
    const run = async (apply: (manager: EntityManager, emitted: Envelope[]) => Promise<void>) => {
      const runner = harness.kit.db.createQueryRunner();
      await runner.connect();
      await runner.startTransaction();
      try {
        const emitted: Envelope[] = [];
        await apply(runner.manager, emitted);
        const links = (await runner.query(
          'SELECT * FROM message_links WHERE message_id = $1 ORDER BY link_index',
          [id],
        )) as unknown[];
        return { links, emitted: emitted.map((each) => JSON.stringify(each)) };
      } finally {
        await runner.rollbackTransaction();
        await runner.release();
      }
    };
    const contextOf = (manager: EntityManager, offset: number, emitted: Envelope[]): RecordContext => ({
      manager,
      topic: harness.kit.topics.requests,
      partition: 0,
      offset: String(offset),
      key: null,
      replaying: false,
      emit: (_topic, envelope) => emitted.push(envelope),
    });
    const alone = await run(async (manager, emitted) => {
      for (const [offset, each] of records.entries())
        await requests.decide(each, contextOf(manager, offset, emitted));
    });
    const together = await run(async (manager, emitted) => {
      expect(records.every((each) => chunk.takes(each))).toBe(true);
      await chunk.apply(
        records.map((each, offset) => ({
          record: each,
          context: contextOf(manager, offset, emitted),
          inSpan: (work) => work(),
        })),
        manager,
      );
    });
    expect(together).toEqual(alone);
    expect(alone.links).toEqual([
      expect.objectContaining({ link_index: 0, clicks: 2, bot_clicks: 2 }),
      expect.objectContaining({ link_index: 1, clicks: 1, bot_clicks: 0 }),
    ]);
    const clicked = alone.emitted
      .map((each) => JSON.parse(each) as Envelope)
      .filter((each) => each.type === LINK_FACT_TYPES.linkClicked);
    expect(
      clicked
        .map((each) => each.data as { link_index: number; clicked_at: string })
        .map((data) => [data.link_index, data.clicked_at]),
    ).toEqual([
      [0, at(5_000)],
      [1, at(7_000)],
    ]);
  });
});
