import { JsonApiException } from '@cms/http';
import type { FastifyReply } from 'fastify';

import { AutomationsApi } from '../automations-api/automations-api';
import type { Principal } from '../auth/principal';
import type { IdAllocatorRepository } from '../ids/id-allocator.repository';
import { TemplatesApiController } from '../messaging-api/templates-api.controller';
import type { MessagingApi } from '../messaging-api/messaging-api';
import type { UpstreamAnswer, UpstreamProxy } from '../proxy/upstream.proxy';
import type { WritePathService } from '../write-path/write-path.service';
import { BroadcastsApi } from './broadcasts-api';

const caller: Principal = { apiKeyId: 1, workspaceId: 5, plan: 'pro', permissions: new Set(['delete']) };

/** The owners' reads: `<service> <path>` → its `data`; anything else is 404, as the proxy throws it. */
class FakeOwners {
  readonly asked: string[] = [];

  constructor(private readonly held: Record<string, unknown>) {}

  get(service: string, path: string, _query: string, workspaceId: number): Promise<UpstreamAnswer> {
    expect(workspaceId).toBe(caller.workspaceId);
    const key = `${service} ${path}`;
    this.asked.push(key);
    if (!(key in this.held)) return Promise.reject(JsonApiException.notFound(`${key} was not found.`));
    return Promise.resolve({ status: 200, body: { data: this.held[key] } });
  }
}

function broadcastsWith(owners: FakeOwners): BroadcastsApi {
  return new BroadcastsApi({} as WritePathService, owners as unknown as UpstreamProxy);
}

async function refusalOf(promise: Promise<unknown>): Promise<JsonApiException> {
  const error: unknown = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof JsonApiException)) throw new Error(`not refused: ${String(error)}`);
  return error;
}

describe("a notification's references", () => {
  const held = {
    'messaging templates/4': { id: 4, name: 'Spring', channel: 'sms' },
    'messaging templates/6': { id: 6, name: 'Hello', channel: 'email' },
    'messaging channels/9': { id: 9, type: 'email' },
    'segments audiences/2': { id: 2, name: 'Fans', size: 10 },
  };

  it("answers the template's name and channel and the audience's name, each read once", async () => {
    const owners = new FakeOwners(held);
    const references = await broadcastsWith(owners).referencesOf(caller, {
      template_id: 4,
      target_group_id: 2,
      route: [
        { channel: 'sms', template_id: 4 },
        { channel_id: 9, template_id: 6 },
      ],
    });
    expect(references).toEqual({
      template_name: 'Spring',
      template_channel: 'sms',
      target_group_name: 'Fans',
    });
    expect(owners.asked.sort()).toEqual([
      'messaging channels/9',
      'messaging templates/4',
      'messaging templates/6',
      'segments audiences/2',
    ]);
  });

  it('reads only what a change names', async () => {
    const owners = new FakeOwners(held);
    expect(await broadcastsWith(owners).referencesOf(caller, { target_group_id: 2, name: 'x' })).toEqual({
      target_group_name: 'Fans',
    });
    expect(await broadcastsWith(owners).referencesOf(caller, { route: null })).toEqual({});
    expect(owners.asked).toEqual(['segments audiences/2']);
  });

  it('refuses every reference the workspace lacks, and a route template of another channel type, at its pointer', async () => {
    const refused = await refusalOf(
      broadcastsWith(new FakeOwners(held)).referencesOf(caller, {
        template_id: 40,
        target_group_id: 20,
        route: [
          { channel: 'email', template_id: 4 },
          { channel_id: 90, template_id: 6 },
        ],
      }),
    );
    expect(refused.getStatus()).toBe(422);
    expect(refused.errors.map((error) => [error.source?.pointer, error.detail])).toEqual([
      ['/data/attributes/template_id', 'Template 40 was not found.'],
      ['/data/attributes/target_group_id', 'Audience 20 was not found.'],
      ['/data/attributes/route/0/template_id', 'Template 4 is for sms, not email.'],
      ['/data/attributes/route/1/channel_id', 'Channel 90 was not found.'],
    ]);
  });

  it("refuses a test send's unknown notification at notification_id", async () => {
    const owners = new FakeOwners({ 'broadcasts notifications/3': { id: 3 } });
    await broadcastsWith(owners).notificationMustExist(caller, 3);
    const refused = await refusalOf(broadcastsWith(owners).notificationMustExist(caller, 8));
    expect(refused.errors).toEqual([
      expect.objectContaining({
        status: '422',
        detail: 'Notification 8 was not found.',
        source: { pointer: '/data/attributes/notification_id' },
      }),
    ]);
  });
});

describe('deleting what a notification uses', () => {
  it('names the notifications that send to an audience as segments names its referrers', async () => {
    const owners = new FakeOwners({
      'broadcasts audiences/4/notifications': [
        { id: 3, name: 'Spring sale' },
        { id: 8, name: 'Weekly' },
      ],
      'broadcasts audiences/5/notifications': [],
    });
    expect(await broadcastsWith(owners).audienceUse(caller, 5)).toBeUndefined();
    expect(await broadcastsWith(owners).audienceUse(caller, 4)).toBe(
      'Audience 4 is used by notification 3 ("Spring sale"), 8 ("Weekly"); change or delete them first.',
    );
  });

  it('refuses a template a workflow, a notification or a bot uses with 422, one error for each', async () => {
    const owners = new FakeOwners({
      'automations templates/4/workflows': [{ id: 2, name: 'Welcome' }],
      'automations templates/4/bots': [{ id: 31, name: 'Lead capture' }],
      'automations templates/6/bots': [],
      'automations templates/8/bots': [],
      'broadcasts templates/4/notifications': Array.from({ length: 12 }, (_, i) => ({
        id: i + 1,
        name: `n${i + 1}`,
      })),
      'automations templates/6/workflows': [],
      'broadcasts templates/6/notifications': [{ id: 7, name: 'Only' }],
      'automations templates/8/workflows': [],
      'broadcasts templates/8/notifications': [],
    });
    const proxy = owners as unknown as UpstreamProxy;
    const written: unknown[] = [];
    const messaging = {
      write: (_reply: FastifyReply, _caller: Principal, type: string, data: unknown) => {
        written.push({ type, data });
        return Promise.resolve(undefined);
      },
    } as unknown as MessagingApi;
    const templates = new TemplatesApiController(
      messaging,
      {} as IdAllocatorRepository,
      new AutomationsApi({} as WritePathService, proxy),
      broadcastsWith(owners),
    );
    const reply = {} as FastifyReply;

    const both = await refusalOf(templates.remove(caller, 4, reply));
    expect(both.getStatus()).toBe(422);
    expect(both.errors.map((error) => error.detail)).toEqual([
      'Template 4 is used by workflow 2 ("Welcome"); change or delete it first.',
      `Template 4 is used by notification ${Array.from({ length: 10 }, (_, i) => `${i + 1} ("n${i + 1}")`).join(', ')} and others; change or delete them first.`,
      'Template 4 is used by bot 31 ("Lead capture"); change or delete it first.',
    ]);
    const one = await refusalOf(templates.remove(caller, 6, reply));
    expect(one.errors.map((error) => error.detail)).toEqual([
      'Template 6 is used by notification 7 ("Only"); change or delete it first.',
    ]);
    expect(written).toEqual([]);
    await templates.remove(caller, 8, reply);
    expect(written).toEqual([{ type: 'template.delete.requested', data: { template_id: 8 } }]);
  });
});
