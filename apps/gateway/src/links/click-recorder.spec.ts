import { LINK_REQUEST_TYPES } from '@cms/contracts';
import type { BatchingProducer } from '@cms/kafka';
import type { Message } from 'kafkajs';
import { pino } from 'pino';
import { Registry } from 'prom-client';

import type { GatewayConfig } from '../config';
import { ClickRecorder } from './click-recorder';
import type { ResolvedLink } from './link-resolver';

const config = {
  topics: { requests: 'requests' },
  links: { clicksPerClient: 20, recordsPerWorkspace: 3, cacheSize: 10 },
} as GatewayConfig;

function linkOf(workspaceId: number): ResolvedLink {
  return {
    workspaceId,
    messageId: 'msg_0123456789abcdef0123456789abcdef',
    linkIndex: 1,
    url: 'https://x.example',
  };
}

function recorder(send: (topic: string, messages: Message[]) => Promise<unknown>) {
  const registry = new Registry();
  const made = new ClickRecorder(
    config,
    { send } as unknown as BatchingProducer,
    pino({ level: 'silent' }),
    registry,
  );
  const unrecorded = async (reason: string): Promise<number> => {
    const metric = await registry.getSingleMetric('cms_link_clicks_unrecorded_total')!.get();
    return metric.values.find((value) => value.labels['reason'] === reason)?.value ?? 0;
  };
  return { made, unrecorded };
}

const flushed = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 30));

describe('recording the clicks of tracked links', () => {
  it('gathers the clicks a workspace gets together into one record keyed by it, in the order taken', async () => {
    const sends: Array<{ topic: string; messages: Message[] }> = [];
    const { made } = recorder(async (topic, messages) => void sends.push({ topic, messages }));
    const at = (ms: number): Date => new Date(Date.parse('2026-03-01T12:00:00.000Z') + ms);
    made.record(linkOf(7), 'Mozilla/5.0 '.repeat(100), at(0));
    made.record(linkOf(8), '', at(1));
    made.record(linkOf(7), 'second', at(2));
    await flushed();
    expect(sends).toHaveLength(1);
    expect(sends[0]!.topic).toBe('requests');
    expect(sends[0]!.messages.map((message) => message.key)).toEqual(['7', '8']);
    const envelope = JSON.parse(String(sends[0]!.messages[0]!.value)) as {
      type: string;
      time: string;
      data: { clicks: Array<Record<string, unknown>> };
    };
    expect(envelope.type).toBe(LINK_REQUEST_TYPES.linkClicks);
    expect(envelope.time).toBe(at(0).toISOString());
    expect(envelope.data.clicks).toEqual([
      {
        message_id: 'msg_0123456789abcdef0123456789abcdef',
        link_index: 1,
        user_agent: 'Mozilla/5.0 '.repeat(100).slice(0, 512),
        clicked_at: at(0).toISOString(),
      },
      expect.objectContaining({ user_agent: 'second', clicked_at: at(2).toISOString() }),
    ]);
  });

  it("records past a workspace's share nothing more of it, and still records every other workspace's clicks", async () => {
    const keys: string[] = [];
    const { made, unrecorded } = recorder(
      async (_topic, messages) => void keys.push(...messages.map((m) => String(m.key))),
    );
    for (let i = 0; i < 5; i += 1) made.record(linkOf(1), 'a', new Date());
    made.record(linkOf(2), 'a', new Date());
    await flushed();
    // One record of the workspace's three clicks, one of the other's.
    expect(keys).toEqual(['1', '2']);
    expect(await unrecorded('workspace_bound')).toBe(2);
  });

  it('counts the clicks the broker refused, and never throws', async () => {
    const { made, unrecorded } = recorder(() => Promise.reject(new Error('broker away')));
    made.record(linkOf(3), 'a', new Date());
    made.record(linkOf(4), 'a', new Date());
    await flushed();
    expect(await unrecorded('produce_failed')).toBe(2);
  });
});
