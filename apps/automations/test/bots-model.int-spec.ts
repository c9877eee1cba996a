import { BOT_REQUEST_TYPES, requestEnvelope } from '@cms/contracts';
import { ServiceHarness } from '@cms/service-kit/testing';
import { eventually, startFakeChatCompletions, type FakeChatCompletions } from '@cms/testing';

import { AUTOMATIONS_SERVICE } from '../src/automations.service';
import type { AutomationsConfig } from '../src/config';
import { contactCreated, inboundMessage } from './run-facts';

/**
 * AI bots and a model that is slow for one workspace (extensions §6, §12): the slow workspace's calls
 * take at most their share of the model worker, so another workspace's conversation is answered while
 * the slow one's calls are still waiting.
 */

const SLOW = 1;
const QUICK = 2;
const SLOW_CONVERSATIONS = 24;

let harness: ServiceHarness<AutomationsConfig>;
let model: FakeChatCompletions;
let release: () => void;
const released = new Promise<void>((resolve) => (release = resolve));

beforeAll(async () => {
  // The slow workspace's questions are answered only when the test lets them.
  model = await startFakeChatCompletions({
    apiKey: 'sk-fair',
    models: ['fair-model'],
    reply: async (request) => {
      const question = String(request.messages.at(-1)?.content ?? '');
      if (question.startsWith('slow')) await released;
      return `Answer to ${question}`;
    },
  });
  harness = await ServiceHarness.start({
    definition: AUTOMATIONS_SERVICE,
    prefix: 'autoai',
    read: ['requests'],
    env: {
      AI_BASE_URL: model.baseUrl,
      AI_API_KEY: 'sk-fair',
      AI_MODEL: 'fair-model',
      BOT_MODEL_CONCURRENCY: '6',
      BOT_MODEL_CALLS_PER_WORKSPACE: '3',
    },
  });
  await harness.startService();
}, 120_000);

afterAll(async () => {
  release();
  await harness?.stop();
  await model?.close();
});

/** A bot decided (its answer read): an inbound message read after it finds it. */
async function aiBot(workspaceId: number, botId: number): Promise<void> {
  const envelope = requestEnvelope(
    BOT_REQUEST_TYPES.create,
    {
      bot_id: botId,
      name: `Helper ${botId}`,
      description: null,
      mode: 'ai',
      trigger_type: 'any_message',
      trigger_value: null,
      target_group_id: null,
      ai_instructions: 'Answer.',
      ai_temperature: null,
      ai_max_tokens: null,
      flow_definition: null,
      settings: {},
      enabled: true,
    },
    { source: 'gateway', workspaceid: String(workspaceId) },
  );
  await harness.produce(envelope);
  expect((await harness.outcomeOf(envelope)).data.status).toBe(201);
}

async function answered(workspaceId: number): Promise<number> {
  const rows: Array<{ count: string }> = await harness.db.query(
    "SELECT count(*) FROM bot_conversations WHERE workspace_id = $1 AND jsonb_array_length(messages) = 2 AND awaiting = '[]'::jsonb",
    [workspaceId],
  );
  return Number(rows[0]!.count);
}

it("answers one workspace's conversation while a slow model holds another's calls", async () => {
  await aiBot(SLOW, 1);
  await aiBot(QUICK, 2);
  await harness.publish(harness.topics.contacts, [
    ...Array.from({ length: SLOW_CONVERSATIONS }, (_, index) => contactCreated(SLOW, 100 + index)),
    contactCreated(QUICK, 900),
  ]);
  await harness.publish(
    harness.topics.messaging,
    Array.from({ length: SLOW_CONVERSATIONS }, (_, index) =>
      inboundMessage(SLOW, { contactId: 100 + index, channelId: 1, text: `slow ${index}` }),
    ),
  );
  await eventually('the slow calls asked', async () => (model.received >= 3 ? true : undefined));
  await harness.publish(harness.topics.messaging, [
    inboundMessage(QUICK, { contactId: 900, channelId: 2, text: 'quick one' }),
  ]);
  await eventually(
    'the quick workspace answered',
    async () => ((await answered(QUICK)) === 1 ? true : undefined),
    60_000,
  );
  // Answered while every slow call still waits for the model.
  expect(await answered(SLOW)).toBe(0);
  const calls: Array<{ count: string }> = await harness.db.query(
    'SELECT count(*) FROM bot_model_calls WHERE workspace_id = $1',
    [SLOW],
  );
  expect(Number(calls[0]!.count)).toBe(SLOW_CONVERSATIONS);
  release();
  await eventually(
    'every slow conversation answered',
    async () => ((await answered(SLOW)) === SLOW_CONVERSATIONS ? true : undefined),
    60_000,
  );
});
