import { MESSAGING_REQUEST_TYPES, SEGMENTS_REQUEST_TYPES, type RequestType } from '@cms/contracts';
import { JsonApiException } from '@cms/http';
import type { FastifyReply, FastifyRequest } from 'fastify';

import type { Principal } from '../auth/principal';
import { BroadcastsApi } from '../broadcasts-api/broadcasts-api';
import type { GatewayConfig } from '../config';
import type { IdAllocatorRepository } from '../ids/id-allocator.repository';
import type { IdKind } from '../ids/id-kinds';
import { ChannelsApiController } from '../messaging-api/channels-api.controller';
import type { MessagingApi } from '../messaging-api/messaging-api';
import type { UpstreamAnswer, UpstreamProxy } from '../proxy/upstream.proxy';
import { AudiencesApiController } from '../segments-api/audiences-api.controller';
import type { SegmentsApi } from '../segments-api/segments-api';
import type { WriteAnswer, WritePathService, WriteRequest } from '../write-path/write-path.service';
import { AutomationsApi } from './automations-api';
import { BotsApiController } from './bots-api.controller';

const caller: Principal = {
  apiKeyId: 1,
  workspaceId: 5,
  plan: 'pro',
  permissions: new Set(['read', 'create', 'update', 'delete']),
};

/** The owners' reads: `<service> <path>` → its `data`; anything else is 404, as the proxy throws it. */
class FakeOwners {
  readonly asked: string[] = [];

  constructor(private readonly held: Record<string, unknown> = {}) {}

  get(service: string, path: string, query: string, workspaceId: number): Promise<UpstreamAnswer> {
    expect(workspaceId).toBe(caller.workspaceId);
    const key = `${service} ${path}${query === '' ? '' : `?${query}`}`;
    this.asked.push(key);
    if (!(key in this.held)) return Promise.reject(JsonApiException.notFound(`${key} was not found.`));
    return Promise.resolve({ status: 200, body: { data: this.held[key] } });
  }
}

/** The write path: every request submitted, each answered as the automations service would. */
class FakeWritePath {
  readonly submitted: Array<{ type: string; workspaceId: number; data: unknown }> = [];

  submit(request: WriteRequest<RequestType>): Promise<WriteAnswer> {
    this.submitted.push({ type: request.type, workspaceId: request.workspaceId, data: request.data });
    const data = request.data as unknown as Record<string, unknown>;
    if (request.type === 'bot.delete.requested') return Promise.resolve({ status: 204 });
    return Promise.resolve({
      status: request.type === 'bot.create.requested' ? 201 : 200,
      resource: { id: data['bot_id'] },
    });
  }
}

/** The ids handed out, in order, from 31. */
class FakeIds {
  readonly minted: IdKind[] = [];

  next(kind: IdKind): Promise<number> {
    this.minted.push(kind);
    return Promise.resolve(30 + this.minted.length);
  }
}

class FakeReply {
  statusCode = 0;

  status(code: number): this {
    this.statusCode = code;
    return this;
  }
}

const HELD = {
  'segments audiences/2': { id: 2, name: 'Fans' },
  'messaging channels/9': { id: 9, type: 'sms' },
  'messaging templates/4': { id: 4, name: 'Welcome', channel: 'sms' },
  'contacts tags/7': { id: 7, name: 'lead' },
};

function setUp(held: Record<string, unknown> = HELD) {
  const owners = new FakeOwners(held);
  const writePath = new FakeWritePath();
  const ids = new FakeIds();
  const automations = new AutomationsApi(
    writePath as unknown as WritePathService,
    owners as unknown as UpstreamProxy,
  );
  const bots = new BotsApiController(automations, ids as unknown as IdAllocatorRepository);
  return { owners, writePath, ids, automations, bots, reply: new FakeReply() };
}

async function refusalOf(promise: Promise<unknown>): Promise<JsonApiException> {
  const error: unknown = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof JsonApiException)) throw new Error(`not refused: ${String(error)}`);
  return error;
}

function pointersOf(refusal: JsonApiException): Array<string | undefined> {
  return refusal.errors.map((error) => error.source?.pointer);
}

const FLOW = {
  name: 'Lead capture',
  mode: 'flow',
  trigger_type: 'keyword',
  trigger_value: ' JOIN ',
  target_group_id: 2,
  settings: { channel_id: 9 },
  flow_definition: {
    steps: [
      { id: 'hello', type: 'message', template_id: 4 },
      { id: 'ask', type: 'question', text: 'Your email?', save_as: 'email', validate: 'email' },
      { id: 'mark', type: 'tag', tag_id: 7 },
      { id: 'bye', type: 'end' },
    ],
  },
};

describe('creating a bot', () => {
  it('writes bot.create.requested with the minted bot id and the defaults, after reading what it names', async () => {
    const { owners, writePath, ids, bots, reply } = setUp();
    const answer = await bots.create(caller, FLOW, reply as unknown as FastifyReply);

    expect(ids.minted).toEqual(['bot']);
    expect(writePath.submitted).toEqual([
      {
        type: 'bot.create.requested',
        workspaceId: 5,
        data: {
          bot_id: 31,
          name: 'Lead capture',
          description: null,
          mode: 'flow',
          trigger_type: 'keyword',
          trigger_value: 'JOIN',
          target_group_id: 2,
          ai_instructions: null,
          ai_temperature: null,
          ai_max_tokens: null,
          flow_definition: FLOW.flow_definition,
          settings: { channel_id: 9 },
          enabled: true,
        },
      },
    ]);
    expect(reply.statusCode).toBe(201);
    expect(answer).toEqual({ data: { id: 31 } });
    expect(owners.asked.sort()).toEqual([
      'contacts tags/7',
      'messaging channels/9',
      'messaging templates/4',
      'segments audiences/2',
    ]);
  });

  it('refuses a body without name, mode and trigger_type with a pointer to each, minting and writing nothing', async () => {
    const { writePath, ids, bots, reply } = setUp();
    const refused = await refusalOf(
      bots.create(caller, { description: 'no name' }, reply as unknown as FastifyReply),
    );
    expect(refused.getStatus()).toBe(422);
    expect(pointersOf(refused)).toEqual([
      '/data/attributes/name',
      '/data/attributes/mode',
      '/data/attributes/trigger_type',
    ]);
    expect(ids.minted).toEqual([]);
    expect(writePath.submitted).toEqual([]);
  });

  it('refuses an unknown step type and a next that names no step at the step field', async () => {
    const { bots, reply } = setUp();
    const refused = await refusalOf(
      bots.create(
        caller,
        {
          name: 'Flow',
          mode: 'flow',
          trigger_type: 'any_message',
          flow_definition: {
            steps: [
              { id: 'a', type: 'message', text: 'Hi', next: 'nowhere' },
              { id: 'b', type: 'wait' },
            ],
          },
        },
        reply as unknown as FastifyReply,
      ),
    );
    expect(refused.getStatus()).toBe(422);
    expect(pointersOf(refused)).toEqual([
      '/data/attributes/flow_definition/steps/0/next',
      '/data/attributes/flow_definition/steps/1/type',
    ]);
  });

  it('refuses a cron expression that does not parse and an unknown time zone at their settings', async () => {
    const { bots, reply } = setUp();
    const refused = await refusalOf(
      bots.create(
        caller,
        {
          name: 'Weekly',
          mode: 'ai',
          ai_instructions: 'Be brief.',
          trigger_type: 'schedule',
          target_group_id: 2,
          settings: { schedule_cron: '0 9 * *', schedule_timezone: 'Mars/Olympus', channel_id: 9 },
        },
        reply as unknown as FastifyReply,
      ),
    );
    expect(pointersOf(refused)).toEqual([
      '/data/attributes/settings/schedule_cron',
      '/data/attributes/settings/schedule_timezone',
    ]);
  });

  it('refuses what a flow bot or a schedule bot lacks at the attribute that is missing', async () => {
    const { bots, reply } = setUp();
    const refused = await refusalOf(
      bots.create(
        caller,
        { name: 'Empty', mode: 'flow', trigger_type: 'schedule', settings: { schedule_cron: '0 9 * * 1' } },
        reply as unknown as FastifyReply,
      ),
    );
    expect(pointersOf(refused)).toEqual([
      '/data/attributes/flow_definition/steps',
      '/data/attributes/target_group_id',
      '/data/attributes/settings/channel_id',
    ]);
  });

  it('refuses every reference that names nothing in the workspace at its pointer, in body order', async () => {
    const { writePath, ids, bots, reply } = setUp({});
    const refused = await refusalOf(bots.create(caller, FLOW, reply as unknown as FastifyReply));
    expect(refused.getStatus()).toBe(422);
    expect(refused.errors.map((error) => [error.source?.pointer, error.detail])).toEqual([
      ['/data/attributes/target_group_id', 'Audience 2 was not found.'],
      ['/data/attributes/settings/channel_id', 'Channel 9 was not found.'],
      ['/data/attributes/flow_definition/steps/0/template_id', 'Template 4 was not found.'],
      ['/data/attributes/flow_definition/steps/2/tag_id', 'Tag 7 was not found.'],
    ]);
    expect(ids.minted).toEqual([]);
    expect(writePath.submitted).toEqual([]);
  });
});

describe('changing and deleting a bot', () => {
  it('requires name, mode and trigger_type on PATCH too, with a pointer to each missing', async () => {
    const { writePath, bots, reply } = setUp();
    const refused = await refusalOf(
      bots.update(caller, 31, { name: 'Renamed' }, reply as unknown as FastifyReply),
    );
    expect(refused.getStatus()).toBe(422);
    expect(pointersOf(refused)).toEqual(['/data/attributes/mode', '/data/attributes/trigger_type']);
    expect(writePath.submitted).toEqual([]);
  });

  it('writes bot.update.requested with only the attributes sent, after reading what they name', async () => {
    const { owners, writePath, bots, reply } = setUp();
    const answer = await bots.update(
      caller,
      31,
      { name: 'Renamed', mode: 'ai', trigger_type: 'any_message', enabled: false, target_group_id: 2 },
      reply as unknown as FastifyReply,
    );
    expect(writePath.submitted).toEqual([
      {
        type: 'bot.update.requested',
        workspaceId: 5,
        data: {
          bot_id: 31,
          changes: {
            name: 'Renamed',
            mode: 'ai',
            trigger_type: 'any_message',
            enabled: false,
            target_group_id: 2,
          },
        },
      },
    ]);
    expect(owners.asked).toEqual(['segments audiences/2']);
    expect(reply.statusCode).toBe(200);
    expect(answer).toEqual({ data: { id: 31 } });
  });

  it('refuses a PATCH whose channel names nothing, writing nothing', async () => {
    const { writePath, bots, reply } = setUp();
    const refused = await refusalOf(
      bots.update(
        caller,
        31,
        { name: 'Bot', mode: 'ai', trigger_type: 'event', settings: { channel_id: 90 } },
        reply as unknown as FastifyReply,
      ),
    );
    expect(refused.errors).toEqual([
      expect.objectContaining({
        status: '422',
        detail: 'Channel 90 was not found.',
        source: { pointer: '/data/attributes/settings/channel_id' },
      }),
    ]);
    expect(writePath.submitted).toEqual([]);
  });

  it('writes bot.delete.requested and answers 204', async () => {
    const { writePath, bots, reply } = setUp();
    expect(await bots.remove(caller, 31, reply as unknown as FastifyReply)).toBeUndefined();
    expect(writePath.submitted).toEqual([
      { type: 'bot.delete.requested', workspaceId: 5, data: { bot_id: 31 } },
    ]);
    expect(reply.statusCode).toBe(204);
  });
});

describe('reading bots', () => {
  it("passes each read to the automations service's internal path with its query", async () => {
    const { owners, bots } = setUp({
      'automations bots?filter%5Bmode%5D=flow': [],
      'automations bots/31': { id: 31 },
      'automations bots/31/conversations?filter%5Bstatus%5D=active': [],
      'automations bot-conversations/8': { id: 8 },
    });
    const request = (url: string) => ({ url }) as FastifyRequest;
    const reply = () => new FakeReply() as unknown as FastifyReply;
    await bots.list(caller, request('/api/v1/bots?filter%5Bmode%5D=flow'), reply());
    await bots.get(caller, 31, request('/api/v1/bots/31'), reply());
    await bots.conversations(
      caller,
      31,
      request('/api/v1/bots/31/conversations?filter%5Bstatus%5D=active'),
      reply(),
    );
    expect(await bots.conversation(caller, 8, request('/api/v1/bot-conversations/8'), reply())).toEqual({
      data: { id: 8 },
    });
    expect(owners.asked).toEqual([
      'automations bots?filter%5Bmode%5D=flow',
      'automations bots/31',
      'automations bots/31/conversations?filter%5Bstatus%5D=active',
      'automations bot-conversations/8',
    ]);
  });
});

describe('deleting what a bot names', () => {
  const uses = {
    'automations audiences/2/bots': [{ id: 31, name: 'Lead capture' }],
    'broadcasts audiences/2/notifications': [{ id: 3, name: 'Spring sale' }],
    'automations audiences/6/bots': [],
    'broadcasts audiences/6/notifications': [],
    'automations channels/9/bots': [
      { id: 31, name: 'Lead capture' },
      { id: 32, name: 'Weekly' },
    ],
    'automations channels/10/bots': [],
  };

  function writtenBy() {
    const written: unknown[] = [];
    const api = {
      write: (_reply: FastifyReply, _caller: Principal, type: string, data: unknown) => {
        written.push({ type, data });
        return Promise.resolve(undefined);
      },
    };
    return { written, api };
  }

  it('refuses an audience a bot targets with 409, beside the notifications that send to it', async () => {
    const owners = new FakeOwners(uses);
    const proxy = owners as unknown as UpstreamProxy;
    const { written, api } = writtenBy();
    const audiences = new AudiencesApiController(
      api as unknown as SegmentsApi,
      {} as IdAllocatorRepository,
      new BroadcastsApi({} as WritePathService, proxy),
      new AutomationsApi({} as WritePathService, proxy),
    );
    const reply = {} as FastifyReply;

    const refused = await refusalOf(audiences.remove(caller, 2, reply));
    expect(refused.getStatus()).toBe(409);
    expect(refused.errors.map((error) => [error.status, error.detail])).toEqual([
      ['409', 'Audience 2 is used by notification 3 ("Spring sale"); change or delete it first.'],
      ['409', 'Audience 2 is used by bot 31 ("Lead capture"); change or delete it first.'],
    ]);
    expect(written).toEqual([]);
    await audiences.remove(caller, 6, reply);
    expect(written).toEqual([{ type: SEGMENTS_REQUEST_TYPES.audienceDelete, data: { audience_id: 6 } }]);
  });

  it("refuses a channel a bot's settings name with 409, naming the bots", async () => {
    const owners = new FakeOwners(uses);
    const { written, api } = writtenBy();
    const channels = new ChannelsApiController(
      api as unknown as MessagingApi,
      {} as IdAllocatorRepository,
      {} as GatewayConfig,
      new AutomationsApi({} as WritePathService, owners as unknown as UpstreamProxy),
    );
    const reply = {} as FastifyReply;

    const refused = await refusalOf(channels.remove(caller, 9, reply));
    expect(refused.getStatus()).toBe(409);
    expect(refused.errors).toEqual([
      {
        status: '409',
        title: 'Conflict',
        detail: 'Channel 9 is used by bot 31 ("Lead capture"), 32 ("Weekly"); change or delete them first.',
      },
    ]);
    expect(written).toEqual([]);
    await channels.remove(caller, 10, reply);
    expect(written).toEqual([{ type: MESSAGING_REQUEST_TYPES.channelDelete, data: { channel_id: 10 } }]);
  });
});
