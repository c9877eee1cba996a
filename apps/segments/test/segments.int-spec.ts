import {
  CHANNEL_TYPES,
  OUTCOME_TYPES,
  SEGMENTS_FACT_TYPES,
  SEGMENTS_REQUEST_TYPES,
  SNAPSHOT_PART_SIZE,
  type AudienceSnapshotRequestedV1,
  type Envelope,
} from '@cms/contracts';
import { migrationDrift } from '@cms/persistence';
import type { RunningService } from '@cms/service-kit';
import { ServiceHarness, type OutcomeEnvelope } from '@cms/service-kit/testing';
import { eventually } from '@cms/testing';
import pino from 'pino';
import { DataSource } from 'typeorm';

import type { SegmentsConfig } from '../src/config';
import { SEGMENTS_SERVICE } from '../src/segments.service';
import { IndexWarmer } from '../src/views/index-warmer';
import type { WorkspaceViews } from '../src/views/workspace-views';
import {
  contactFact,
  eventFact,
  suppressionFact,
  tagDeletedFact,
  tagFact,
  tagsChangedFact,
  type ContactSeed,
} from './support/view-facts';

let harness: ServiceHarness<SegmentsConfig>;
let service: RunningService;
let lastWorkspace = 0;
let lastId = 0;

beforeAll(async () => {
  harness = await ServiceHarness.start({
    definition: SEGMENTS_SERVICE,
    prefix: 'segments',
    read: ['segments'],
  });
  service = await harness.startService();
}, 120_000);

afterAll(async () => {
  await harness?.stop();
});

/** A workspace of its own for each test. */
function workspace(): number {
  lastWorkspace += 1;
  return lastWorkspace;
}

/** Ids as the gateway mints them: unique across workspaces. */
function nextId(): number {
  lastId += 1;
  return lastId;
}

/** What the service's reads answer, as far as these tests look into it. */
interface ReadBody {
  data: {
    id: number;
    size: number;
    count: number;
    sample: Array<{ id: number } & Record<string, unknown>>;
    reachable: Record<string, number>;
    computed_at: string;
  } & Record<string, unknown>;
  errors: Array<{ detail: string; source: { pointer: string } }>;
  meta: { total: number };
}

async function call(
  method: 'GET' | 'POST',
  path: string,
  workspaceId: number,
  body?: unknown,
): Promise<{ status: number; body: ReadBody }> {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: { 'x-workspace-id': String(workspaceId), 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as ReadBody };
}

function preview(workspaceId: number, body: object): Promise<{ status: number; body: ReadBody }> {
  return call('POST', '/internal/v1/audience/preview', workspaceId, body);
}

async function audience(workspaceId: number, data: object): Promise<OutcomeEnvelope> {
  return harness.request(SEGMENTS_REQUEST_TYPES.audienceCreate, workspaceId, {
    audience_id: nextId(),
    ...data,
  });
}

/** Publishes the contacts and waits until the view of the workspace holds them all. */
async function seed(
  workspaceId: number,
  contacts: ContactSeed[],
  extra: Parameters<typeof harness.publish>[1] = [],
) {
  await harness.publish(harness.topics.contacts, [
    ...contacts.map((c) => contactFact(workspaceId, c)),
    ...extra,
  ]);
  await eventually('the view holds the contacts', async () => {
    const rows: unknown[] = await harness.db.query('SELECT id FROM contacts WHERE workspace_id = $1', [
      workspaceId,
    ]);
    return rows.length === contacts.length || undefined;
  });
}

/** The resource an accepted outcome carries. */
function resourceOf(outcome: OutcomeEnvelope): { id: number } & Record<string, unknown> {
  return (outcome.data as unknown as { resource: { id: number } & Record<string, unknown> }).resource;
}

const DAY = 24 * 60 * 60 * 1000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

describe('the process', () => {
  it('starts from main.ts, migrates, and answers /health, /ready and /metrics', async () => {
    const started = await harness.spawnService({
      schema: harness.newSchema(),
      env: { CONSUMER_NAME: 'segments-process' },
    });
    try {
      expect((await fetch(`${started.url}/health`)).status).toBe(200);
      expect((await fetch(`${started.url}/ready`)).status).toBe(200);
      const metrics = await fetch(`${started.url}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('service="segments"');
    } finally {
      await started.stop();
    }
  });
});

describe('preview', () => {
  it('counts, samples by id and counts who each channel can reach, on every kind of field', async () => {
    const ws = workspace();
    const [a, b, c, d] = [nextId(), nextId(), nextId(), nextId()];
    const vip = nextId();
    await seed(
      ws,
      [
        {
          id: d,
          name: 'Dora',
          phone: '+15550000004',
          email: 'dora@example.com',
          data: { plan: 'gold', spent: 120 },
          consent: { sms: true, email: true, whatsapp: true },
          tag_ids: [vip],
        },
        {
          id: b,
          name: 'Bob',
          phone: '+15550000002',
          data: { plan: 'free', spent: 5 },
          consent: { sms: true },
        },
        {
          id: a,
          name: 'Ana',
          email: 'ana@example.com',
          data: { plan: 'gold', spent: 80 },
          consent: { email: true, telegram: true },
          channels: { telegram: 'tg-ana' },
          tag_ids: [vip],
        },
        { id: c, name: 'Cy', data: {}, created_at: ago(40) },
      ],
      [
        tagFact(ws, vip, 'VIP'),
        eventFact(ws, nextId(), a, 'purchase', ago(2)),
        eventFact(ws, nextId(), a, 'purchase', ago(3)),
        eventFact(ws, nextId(), d, 'purchase', ago(45)),
      ],
    );
    await harness.publish(harness.topics.messaging, [
      suppressionFact(ws, `sup_${'1'.repeat(32)}`, 'sms', '+15550000004', true),
    ]);
    await eventually('the events and the suppression in the view', async () => {
      const rows: unknown[] = await harness.db.query('SELECT 1 FROM suppressions WHERE workspace_id = $1', [
        ws,
      ]);
      const events: unknown[] = await harness.db.query(
        'SELECT 1 FROM contact_events WHERE workspace_id = $1',
        [ws],
      );
      return (rows.length === 1 && events.length === 3) || undefined;
    });

    const all = await preview(ws, {});
    expect(all.status).toBe(200);
    expect(all.body.data.count).toBe(4);
    expect(all.body.data.sample.map((contact: { id: number }) => contact.id)).toEqual([a, b, c, d]);
    expect(Object.keys(all.body.data.reachable).sort()).toEqual([...CHANNEL_TYPES].sort());
    // Dora's sms is suppressed; Bob's is not; email: Ana and Dora; whatsapp: Dora; telegram: Ana.
    expect(all.body.data.reachable).toMatchObject({ sms: 1, email: 2, whatsapp: 1, telegram: 1, rcs: 0 });
    expect(all.body.data.sample[0]).toMatchObject({
      id: a,
      name: 'Ana',
      tags: [{ id: vip, name: 'VIP', color: null }],
      channels: { telegram: 'tg-ana', messenger: null },
      marketing_consent: { email: true, sms: null },
    });
    expect(Date.parse(all.body.data.computed_at)).not.toBeNaN();

    const gold = await preview(ws, {
      filter_criteria: [
        { field: 'data.plan', operator: 'eq', value: 'GOLD' },
        {
          any: [
            { field: 'tags', operator: 'has', value: vip },
            { field: 'name', operator: 'contains', value: 'x' },
          ],
        },
      ],
      limit: 1,
    });
    expect(gold.body.data).toMatchObject({ count: 2, sample: [{ id: a }] });

    const buyers = await preview(ws, {
      filter_criteria: [{ field: 'event.purchase', operator: 'performed', value: { within_last: 'P30D' } }],
    });
    expect(buyers.body.data.count).toBe(1);
    const notBuyers = await preview(ws, {
      filter_criteria: [
        { field: 'event.purchase', operator: 'not_performed', value: { within_last: 'P30D' } },
      ],
      include_contact_ids: [a],
      exclude_contact_ids: [b],
    });
    // c and d did not buy within 30 days (b excluded); a is included whatever the filter says.
    expect(notBuyers.body.data.sample.map((contact: { id: number }) => contact.id)).toEqual([a, c, d]);
    const spenders = await preview(ws, {
      filter_criteria: [
        { field: 'data.spent', operator: 'between', value: [50, 150] },
        { not: { field: 'consent.whatsapp', operator: 'eq', value: true } },
      ],
    });
    expect(spenders.body.data.sample.map((contact: { id: number }) => contact.id)).toEqual([a]);
    const older = await preview(ws, {
      filter_criteria: [{ field: 'created_at', operator: 'not_within_last', value: 'P30D' }],
    });
    expect(older.body.data.sample.map((contact: { id: number }) => contact.id)).toEqual([c]);
  });

  it('refuses what the language cannot read, unknown contacts and unknown audiences with 422 and a pointer', async () => {
    const ws = workspace();
    const known = nextId();
    await seed(ws, [{ id: known, name: 'K' }]);
    const badOperator = await preview(ws, {
      filter_criteria: [{ field: 'name', operator: 'gt', value: 'a' }],
    });
    expect(badOperator.status).toBe(422);
    expect(badOperator.body.errors[0].source.pointer).toBe('/data/attributes/filter_criteria/0/operator');
    const unknownContact = await preview(ws, { include_contact_ids: [known, 999_999_999] });
    expect(unknownContact.status).toBe(422);
    expect(unknownContact.body.errors[0].source.pointer).toBe('/data/attributes/include_contact_ids/1');
    const unknownAudience = await preview(ws, {
      filter_criteria: [{ field: 'audience', operator: 'in', value: [999_999_999] }],
    });
    expect(unknownAudience.status).toBe(422);
    // Another workspace's contact is no contact of this one.
    expect((await preview(workspace(), { include_contact_ids: [known] })).status).toBe(422);
  });

  it('sees what changed since its index was built: contacts, tags removed, events and suppressions', async () => {
    const ws = workspace();
    const [first, second] = [nextId(), nextId()];
    const tag = nextId();
    await seed(
      ws,
      [{ id: first, phone: '+15550001001', consent: { sms: true }, tag_ids: [tag] }],
      [tagFact(ws, tag, 't')],
    );
    const byTag = { filter_criteria: [{ field: 'tags', operator: 'has', value: tag }] };
    expect((await preview(ws, byTag)).body.data).toMatchObject({ count: 1, reachable: { sms: 1 } });

    await harness.publish(harness.topics.contacts, [
      contactFact(ws, { id: second, phone: '+15550001002', consent: { sms: true } }),
      tagsChangedFact(ws, second, [tag]),
    ]);
    await eventually(
      'the new contact counted',
      async () => (await preview(ws, byTag)).body.data.count === 2 || undefined,
    );
    await harness.publish(harness.topics.messaging, [
      suppressionFact(ws, `sup_${'2'.repeat(32)}`, 'sms', '+15550001001', true),
    ]);
    await eventually(
      'the suppression applied',
      async () => (await preview(ws, byTag)).body.data.reachable.sms === 1 || undefined,
    );
    await harness.publish(harness.topics.messaging, [
      suppressionFact(ws, `sup_${'2'.repeat(32)}`, 'sms', '+15550001001', false),
    ]);
    await eventually(
      'the suppression lifted',
      async () => (await preview(ws, byTag)).body.data.reachable.sms === 2 || undefined,
    );
    await harness.publish(harness.topics.contacts, [tagDeletedFact(ws, tag)]);
    await eventually(
      'the deleted tag left every contact',
      async () => (await preview(ws, byTag)).body.data.count === 0 || undefined,
    );
    const performed = { filter_criteria: [{ field: 'event.signup', operator: 'performed', value: {} }] };
    await harness.publish(harness.topics.contacts, [eventFact(ws, nextId(), first, 'signup', ago(0))]);
    await eventually(
      'the event counted',
      async () => (await preview(ws, performed)).body.data.count === 1 || undefined,
    );
  });
});

describe('audiences', () => {
  it('creates an audience, answers its exact size on reads, and publishes its facts', async () => {
    const ws = workspace();
    const [x, y] = [nextId(), nextId()];
    await seed(ws, [
      { id: x, name: 'X', data: { city: 'Lisbon' } },
      { id: y, name: 'Y', data: { city: 'Porto' } },
    ]);
    const outcome = await audience(ws, {
      name: 'Lisbon',
      filter_criteria: [{ field: 'data.city', operator: 'eq', value: 'lisbon' }],
      include_contact_ids: [],
      exclude_contact_ids: [],
    });
    expect(outcome.type).toBe(OUTCOME_TYPES.accepted);
    const created = resourceOf(outcome);
    expect(created).toMatchObject({ name: 'Lisbon', source: 'filters' });
    const read = await call('GET', `/internal/v1/audiences/${created.id}`, ws);
    expect(read.body.data).toMatchObject({ id: created.id, size: 1, source: 'filters' });
    const fact = await harness.waitFor('the audience fact', () =>
      harness.recordsOn(harness.topics.segments).find((record) => record.subject === String(created.id)),
    );
    expect(fact.type).toBe(SEGMENTS_FACT_TYPES.audienceCreated);

    const both = await harness.request(SEGMENTS_REQUEST_TYPES.audienceUpdate, ws, {
      audience_id: created.id,
      include_contact_ids: [y],
    });
    expect(both.data).toMatchObject({ status: 200 });
    expect((await call('GET', `/internal/v1/audiences/${created.id}`, ws)).body.data.size).toBe(2);
    const list = await call('GET', '/internal/v1/audiences?filter[source]=filters', ws);
    expect(list.body).toMatchObject({ data: [{ id: created.id, size: 2 }], meta: { total: 1 } });
    expect((await call('GET', `/internal/v1/audiences/${created.id}`, workspace())).status).toBe(404);
  });

  describe('members (GET /internal/v1/audiences/:id/members)', () => {
    /** A workspace's audience of the contacts tagged VIP, `included` added and `excluded` taken away. */
    async function vipAudience(
      ws: number,
      tagged: number[],
      untagged: number[],
      included: number,
      excluded: number,
    ) {
      const vip = nextId();
      await seed(
        ws,
        [...tagged.map((id) => ({ id, tag_ids: [vip] })), ...untagged.map((id) => ({ id }))],
        [tagFact(ws, vip, 'VIP')],
      );
      const outcome = await audience(ws, {
        name: 'VIP',
        filter_criteria: [{ field: 'tags', operator: 'has', value: vip }],
        include_contact_ids: [included],
        exclude_contact_ids: [excluded],
      });
      return { id: resourceOf(outcome).id, vip };
    }

    const members = (audienceId: number | string, query: string, workspaceId: number) =>
      call('GET', `/internal/v1/audiences/${audienceId}/members?${query}`, workspaceId);

    it('answers the asked contacts that are members now, and pages the members in id order as size and snapshot count them', async () => {
      const ws = workspace();
      const [a, b, c, d, e, f] = Array.from({ length: 6 }, () => nextId()) as [
        number,
        number,
        number,
        number,
        number,
        number,
      ];
      const stranger = nextId();
      await seed(workspace(), [{ id: stranger }]);
      // Tagged: a, b, d, e; b excluded, f (untagged) included: a, d, e, f are the members.
      const created = await vipAudience(ws, [a, b, d, e], [c, f], f, b);

      const asked = await members(created.id, `contact_ids=${[c, b, f, a, stranger, a].join(',')}`, ws);
      expect(asked.status).toBe(200);
      expect(asked.body).toEqual({ data: { audience_id: created.id, member_ids: [a, f] } });

      const first = await members(created.id, 'limit=3', ws);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        data: { audience_id: created.id, contact_ids: [a, d, e], next_after: e },
      });
      const last = await members(created.id, `after=${e}&limit=3`, ws);
      expect(last.body).toEqual({ data: { audience_id: created.id, contact_ids: [f], next_after: null } });
      // Every member fits the default page.
      expect((await members(created.id, '', ws)).body.data).toEqual({
        audience_id: created.id,
        contact_ids: [a, d, e, f],
        next_after: null,
      });
      expect((await members(created.id, `after=${a}`, ws)).body.data).toMatchObject({
        contact_ids: [d, e, f],
      });

      // The same members the audience's size counts and a snapshot (one per member for push) lists.
      expect((await call('GET', `/internal/v1/audiences/${created.id}`, ws)).body.data.size).toBe(4);
      const request = harness.envelope(SEGMENTS_REQUEST_TYPES.audienceSnapshot, ws, {
        snapshot_id: nextId(),
        audience_id: created.id,
        channel: 'browser_push',
      } satisfies AudienceSnapshotRequestedV1);
      await harness.produce(request);
      const part = await harness.waitFor('the snapshot part', () =>
        harness
          .recordsOn(harness.topics.segments)
          .find((fact) => fact.causationid === request.id && fact.type === SEGMENTS_FACT_TYPES.snapshotPart),
      );
      expect((part.data as { contact_ids: number[] }).contact_ids).toEqual([a, d, e, f]);

      // Membership is as of the question: d untagged since is no member any more.
      await harness.publish(harness.topics.contacts, [tagsChangedFact(ws, d, [])]);
      await eventually('d counted out of the size', async () => {
        const read = await call('GET', `/internal/v1/audiences/${created.id}`, ws);
        return read.body.data.size === 3 || undefined;
      });
      expect((await members(created.id, `contact_ids=${d},${e}`, ws)).body.data.member_ids).toEqual([e]);
      expect((await members(created.id, 'limit=3', ws)).body.data).toEqual({
        audience_id: created.id,
        contact_ids: [a, e, f],
        next_after: null,
      });
    });

    it("answers 404 for another workspace's audience and 400 for a bad or mixed query", async () => {
      const ws = workspace();
      const [a, b] = [nextId(), nextId()];
      const created = await vipAudience(ws, [a], [b], b, a);
      const elsewhere = workspace();
      await seed(elsewhere, [{ id: nextId() }]);

      const notFound = await call('GET', `/internal/v1/audiences/${created.id}`, elsewhere);
      expect(notFound.status).toBe(404);
      for (const query of ['limit=2', `contact_ids=${a},${b}`]) {
        const answer = await members(created.id, query, elsewhere);
        expect(answer.status).toBe(404);
        expect(answer.body).toEqual(notFound.body);
      }
      expect((await members(nextId(), 'limit=2', ws)).status).toBe(404);
      expect((await members('not-an-id', 'limit=2', ws)).status).toBe(404);

      const tooMany = Array.from({ length: 101 }, (_, i) => i + 1).join(',');
      for (const query of [
        'contact_ids=',
        'contact_ids=1,x',
        `contact_ids=${tooMany}`,
        `contact_ids=${a}&after=0`,
        `contact_ids=${a}&limit=10`,
        'limit=0',
        'limit=1001',
        'after=-1',
        `contact_id=${a}`,
      ]) {
        const answer = await members(created.id, query, ws);
        expect([query, answer.status]).toEqual([query, 400]);
        expect(answer.body.errors).toEqual([
          expect.objectContaining({ status: '400', title: 'Bad Request' }),
        ]);
      }
      expect((await members(created.id, `contact_ids=${a},${b}`, ws)).body.data.member_ids).toEqual([b]);
    });
  });

  it('refuses a taken name, unknown audiences and cycles, changing nothing', async () => {
    const ws = workspace();
    const first = await audience(ws, { name: 'A' });
    const a = resourceOf(first).id;
    const second = await audience(ws, {
      name: 'B',
      filter_criteria: [{ field: 'audience', operator: 'in', value: [a] }],
    });
    const b = resourceOf(second).id;

    expect((await audience(ws, { name: 'A' })).data).toMatchObject({
      status: 422,
      errors: [{ source: { pointer: '/data/attributes/name' } }],
    });
    expect(
      (
        await audience(ws, {
          name: 'D',
          filter_criteria: [{ field: 'audience', operator: 'not_in', value: [424_242_424] }],
        })
      ).data,
    ).toMatchObject({ status: 422 });
    const cycle = await harness.request(SEGMENTS_REQUEST_TYPES.audienceUpdate, ws, {
      audience_id: a,
      filter_criteria: [{ field: 'audience', operator: 'in', value: [b] }],
    });
    expect(cycle.data).toMatchObject({ status: 422, errors: [{ detail: expect.stringContaining('refer') }] });
    const stored: Array<{ filter_criteria: unknown[] }> = await harness.db.query(
      'SELECT filter_criteria FROM audiences WHERE id = $1',
      [a],
    );
    expect(stored[0]!.filter_criteria).toEqual([]);
    // A referenced audience stays until the filter naming it changes.
    expect(
      (await harness.request(SEGMENTS_REQUEST_TYPES.audienceDelete, ws, { audience_id: a })).data,
    ).toMatchObject({
      status: 409,
    });
    expect(
      (await harness.request(SEGMENTS_REQUEST_TYPES.audienceDelete, ws, { audience_id: b })).data,
    ).toMatchObject({
      status: 204,
    });
    expect(
      (await harness.request(SEGMENTS_REQUEST_TYPES.audienceDelete, ws, { audience_id: a })).data,
    ).toMatchObject({
      status: 204,
    });
    expect((await call('GET', `/internal/v1/audiences/${a}`, ws)).status).toBe(404);
  });
});

describe('warming the indexes when the service starts', () => {
  /** A warmer over the view whose builds are recorded, not made. */
  function recordingWarmer(maxContacts: number, built: number[]): IndexWarmer {
    const views = {
      current: async (workspaceId: number) => {
        built.push(workspaceId);
      },
    } as unknown as WorkspaceViews;
    return new IndexWarmer({ dataSource: harness.db, views, maxContacts, logger: pino({ level: 'silent' }) });
  }

  it('builds the indexes of the workspaces with an audience, largest first, while they fit the cache', async () => {
    const [large, small, none] = [workspace(), workspace(), workspace()];
    const people = (count: number) => Array.from({ length: count }, () => ({ id: nextId() }));
    await seed(large, people(3));
    await seed(small, people(2));
    await seed(none, people(4));
    await audience(large, { name: 'Large' });
    await audience(small, { name: 'Small' });

    const candidates = (await recordingWarmer(1_000, []).candidates()).filter((candidate) =>
      [large, small, none].includes(candidate.workspaceId),
    );
    expect(candidates).toEqual([
      { workspaceId: large, contacts: 3 },
      { workspaceId: small, contacts: 2 },
    ]);

    const built: number[] = [];
    const warmer = recordingWarmer(1_000_000, built);
    warmer.start();
    await warmer.whenWarmed();
    await warmer.stop();
    const ours = built.filter((id) => id === large || id === small);
    expect(ours).toEqual([large, small]);
    expect(built).not.toContain(none);

    // Only what fits the bound: the one of 3 contacts fits a bound of 4, the one of 2 after it does not.
    jest.spyOn(IndexWarmer.prototype, 'candidates').mockResolvedValueOnce(candidates);
    const bounded: number[] = [];
    const small4 = recordingWarmer(4, bounded);
    small4.start();
    await small4.whenWarmed();
    await small4.stop();
    expect(bounded).toEqual([large]);
    // The live service runs one as a background worker.
    expect(service.app.get(IndexWarmer).isRunning).toBe(true);
  });

  it('keeps the replica unready while it warms, at most for the bound it is given', async () => {
    const ws = workspace();
    await seed(ws, [{ id: nextId() }]);
    await audience(ws, { name: 'Warm' });
    let release = (): void => undefined;
    const blocked = new Promise<void>((resolve) => {
      release = resolve;
    });
    const views = { current: () => blocked } as unknown as WorkspaceViews;
    const options = {
      dataSource: harness.db,
      views,
      maxContacts: 1_000_000,
      logger: pino({ level: 'silent' }),
    };

    const warming = new IndexWarmer(options);
    warming.start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(warming.isRunning).toBe(false);
    release();
    await warming.whenWarmed();
    expect(warming.isRunning).toBe(true);
    await warming.stop();
    expect(warming.isRunning).toBe(false);

    let never = (): void => undefined;
    const slow = new IndexWarmer({
      ...options,
      views: {
        current: () => new Promise<void>((resolve) => (never = resolve)),
      } as unknown as WorkspaceViews,
      readyWithinMs: 100,
    });
    slow.start();
    expect(slow.isRunning).toBe(false);
    await eventually('ready past its bound', async () => slow.isRunning || undefined, 5_000);
    never();
    await slow.stop();
  });
});

describe('audience snapshots', () => {
  /** What a request record decided on the segments topic, in the order it was published. */
  function factsOf(request: Envelope): Envelope<Record<string, unknown>>[] {
    return harness.recordsOn(harness.topics.segments).filter((fact) => fact.causationid === request.id);
  }

  function snapshotRequest(
    workspaceId: number,
    audienceId: number,
    channel = 'sms',
  ): Envelope<AudienceSnapshotRequestedV1> {
    const data = { snapshot_id: nextId(), audience_id: audienceId, channel } as AudienceSnapshotRequestedV1;
    return harness.envelope(
      SEGMENTS_REQUEST_TYPES.audienceSnapshot,
      workspaceId,
      data,
    ) as Envelope<AudienceSnapshotRequestedV1>;
  }

  function takenOf(request: Envelope): Promise<Envelope<Record<string, unknown>>> {
    return harness.waitFor(`the snapshot taken for ${request.id}`, () =>
      factsOf(request).find((fact) => fact.type === SEGMENTS_FACT_TYPES.snapshotTaken),
    );
  }

  it('publishes the members in id order in parts, one per shared phone, then the taken fact, once', async () => {
    const ws = workspace();
    const ids = Array.from({ length: SNAPSHOT_PART_SIZE + 3 }, () => nextId());
    const [excluded, first, , noPhone, sharing] = ids;
    await seed(
      ws,
      ids.map((id, place) => ({
        id,
        phone:
          id === noPhone ? null : id === sharing ? '+15550000001' : `+1555${String(place).padStart(7, '0')}`,
      })),
    );
    const created = resourceOf(await audience(ws, { name: 'Everyone', exclude_contact_ids: [excluded] }));
    const request = snapshotRequest(ws, created.id);
    // Delivered twice, as a producer's retry can; then records that must be decided after it.
    await harness.produce(request, request);
    const missing = snapshotRequest(ws, nextId(), 'email');
    const elsewhere = snapshotRequest(workspace(), created.id);
    await harness.produce(missing, elsewhere);

    expect((await takenOf(missing)).data).toEqual({
      snapshot_id: missing.data.snapshot_id,
      audience_id: missing.data.audience_id,
      found: false,
      parts: 0,
      audience_size: 0,
      deduplicated: 0,
      at: new Date(missing.time).toISOString(),
    });
    expect((await takenOf(elsewhere)).data).toMatchObject({ found: false, parts: 0, audience_size: 0 });
    const facts = factsOf(request);
    expect(facts.map((fact) => fact.type)).toEqual([
      SEGMENTS_FACT_TYPES.snapshotPart,
      SEGMENTS_FACT_TYPES.snapshotPart,
      SEGMENTS_FACT_TYPES.snapshotTaken,
    ]);
    expect(new Set(facts.map((fact) => fact.id)).size).toBe(3);
    // The lower id keeps the shared phone; the member without a phone stays.
    const expected = ids.filter((id) => id !== excluded && id !== sharing);
    expect(first).toBeLessThan(sharing!);
    expect(facts[0]!.data).toEqual({
      snapshot_id: request.data.snapshot_id,
      audience_id: created.id,
      part: 0,
      contact_ids: expected.slice(0, SNAPSHOT_PART_SIZE),
    });
    expect(facts[1]!.data).toMatchObject({ part: 1, contact_ids: expected.slice(SNAPSHOT_PART_SIZE) });
    expect(facts[2]!.data).toEqual({
      snapshot_id: request.data.snapshot_id,
      audience_id: created.id,
      found: true,
      parts: 2,
      audience_size: ids.length - 1,
      deduplicated: 1,
      at: new Date(request.time).toISOString(),
    });

    // Deciding the records again from the log records the same snapshots and publishes nothing.
    const rebuilt = await harness.rebuild();
    const snapshots = (schema: string) =>
      harness.db.query(`SELECT * FROM "${schema}".audience_snapshots WHERE workspace_id = $1`, [ws]);
    expect(await snapshots(rebuilt)).toEqual(await snapshots(harness.schema));
    expect(await snapshots(rebuilt)).toHaveLength(2);
    const emitted: unknown[] = await harness.db.query(`SELECT 1 FROM "${rebuilt}".outbox`);
    expect(emitted).toEqual([]);
  }, 60_000);
});

describe('rebuilding from the log', () => {
  it('makes the same rows in a new schema, as `ops replay` does', async () => {
    const ws = workspace();
    const [p, q] = [nextId(), nextId()];
    const tag = nextId();
    await seed(
      ws,
      [
        { id: p, tag_ids: [tag] },
        { id: q, email: 'q@example.com' },
      ],
      [tagFact(ws, tag, 'kept'), eventFact(ws, nextId(), p, 'visit', ago(1)), tagsChangedFact(ws, q, [tag])],
    );
    await harness.publish(harness.topics.messaging, [
      suppressionFact(ws, `sup_${'3'.repeat(32)}`, 'email', 'q@example.com', true),
    ]);
    await audience(ws, { name: 'Everyone', include_contact_ids: [p] });
    await eventually('the view complete', async () => {
      const rows: unknown[] = await harness.db.query('SELECT 1 FROM suppressions WHERE workspace_id = $1', [
        ws,
      ]);
      return rows.length === 1 || undefined;
    });
    const live = await harness.projectionRows();
    expect(await harness.projectionRows(await harness.rebuild())).toEqual(live);
  });

  it('has migrations that match the entities (no drift)', async () => {
    expect(await migrationDrift(service.app.get(DataSource))).toEqual([]);
  });
});
