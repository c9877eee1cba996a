import { CONTACT_REQUEST_TYPES, TAG_REQUEST_TYPES } from '@cms/contracts';

import { ContactsHarness, ISO_MS, type Outcome } from './contacts.harness';

let harness: ContactsHarness;
beforeAll(async () => {
  harness = await ContactsHarness.start();
});

afterAll(async () => {
  await harness?.stop();
});

function createTag(workspaceId: number, body: object): Promise<Outcome> {
  return harness.request(TAG_REQUEST_TYPES.create, workspaceId, { tag_id: harness.id(), ...body });
}

async function tagId(workspaceId: number, name: string): Promise<number> {
  const outcome = await createTag(workspaceId, { name });
  expect(outcome.status).toBe(201);
  return outcome.resource!.id as number;
}

async function contactId(workspaceId: number, name: string): Promise<number> {
  const outcome = await harness.request(CONTACT_REQUEST_TYPES.upsert, workspaceId, {
    contact_id: harness.id(),
    contact_limit: 100,
    name,
  });
  return outcome.resource!.id as number;
}

function assign(kind: 'sync' | 'attach' | 'detach', workspaceId: number, contact: number, tagIds: number[]) {
  return harness.request(TAG_REQUEST_TYPES[kind], workspaceId, { contact_id: contact, tag_ids: tagIds });
}

function tagIdsOf(outcome: Outcome): number[] {
  return (outcome.resource!.tags as Array<{ id: number }>).map((tag) => tag.id);
}

describe('POST /api/v1/tags', () => {
  it('creates a tag with 201 and publishes tag.created', async () => {
    const ws = harness.workspace();
    const outcome = await createTag(ws, { name: 'VIP', color: '#FF8800' });
    expect(outcome.status).toBe(201);
    expect(outcome.resource).toEqual({
      id: expect.any(Number),
      name: 'VIP',
      color: '#FF8800',
      created_at: expect.stringMatching(ISO_MS),
      updated_at: expect.stringMatching(ISO_MS),
    });
    const [fact] = await harness.factsOf(outcome);
    expect(fact).toMatchObject({
      type: 'tag.created',
      data: { tag_id: outcome.resource!.id, name: 'VIP', color: '#FF8800' },
    });
    expect((await createTag(ws, { name: 'Short colour', color: '#abc' })).resource!.color).toBe('#abc');
    expect((await createTag(ws, { name: 'No colour' })).resource!.color).toBeNull();
  });

  it('refuses a second tag of the same name in a workspace with 422 at /data/attributes/name', async () => {
    const ws = harness.workspace();
    await tagId(ws, 'Customers');
    const again = await createTag(ws, { name: 'Customers' });
    expect(again.status).toBe(422);
    expect(again.errors![0]).toMatchObject({
      title: 'Validation Error',
      source: { pointer: '/data/attributes/name' },
    });
    expect((await createTag(harness.workspace(), { name: 'Customers' })).status).toBe(201);
  });
});

describe('PATCH /api/v1/tags/{id}', () => {
  it('changes the name and colour, and answers 404 for an unknown tag or one of another workspace', async () => {
    const ws = harness.workspace();
    const id = await tagId(ws, 'Old');
    const outcome = await harness.request(TAG_REQUEST_TYPES.update, ws, {
      tag_id: id,
      name: 'New',
      color: '#000000',
    });
    expect(outcome.status).toBe(200);
    expect(outcome.resource).toMatchObject({ id, name: 'New', color: '#000000' });
    const [fact] = await harness.factsOf(outcome);
    expect(fact).toMatchObject({ type: 'tag.updated', data: { tag_id: id, name: 'New' } });

    const cleared = await harness.request(TAG_REQUEST_TYPES.update, ws, { tag_id: id, color: null });
    expect(cleared.resource).toMatchObject({ name: 'New', color: null });

    for (const [workspaceId, tag] of [
      [ws, 99_999_999],
      [harness.workspace(), id],
    ] as const) {
      const missing = await harness.request(TAG_REQUEST_TYPES.update, workspaceId, {
        tag_id: tag,
        name: 'x',
      });
      expect(missing.status).toBe(404);
      expect(missing.errors).toEqual([
        { status: '404', title: 'Not Found', detail: `Tag ${tag} was not found.` },
      ]);
    }
  });
});

describe('tag assignments', () => {
  it('syncs, attaches and detaches, publishing contact.tags-changed only when something changed', async () => {
    const ws = harness.workspace();
    const [a, b, c] = [await tagId(ws, 'a'), await tagId(ws, 'b'), await tagId(ws, 'c')];
    const contact = await contactId(ws, 'Tagged');

    const synced = await assign('sync', ws, contact, [b, a]);
    expect(synced.status).toBe(200);
    expect(tagIdsOf(synced)).toEqual([a, b]);
    expect(synced.resource!.tags).toEqual([
      { id: a, name: 'a', color: null },
      { id: b, name: 'b', color: null },
    ]);
    const [syncFact] = await harness.factsOf(synced);
    expect(syncFact).toMatchObject({
      type: 'contact.tags-changed',
      data: { contact_id: contact, tag_ids: [a, b], added: [a, b], removed: [] },
    });

    expect(tagIdsOf(await assign('attach', ws, contact, [c, a]))).toEqual([a, b, c]);
    expect(tagIdsOf(await assign('detach', ws, contact, [a]))).toEqual([b, c]);
    const resynced = await assign('sync', ws, contact, [c]);
    expect(tagIdsOf(resynced)).toEqual([c]);
    expect((await harness.factsOf(resynced))[0]!.data).toMatchObject({ added: [], removed: [b] });

    const unchanged = await assign('attach', ws, contact, [c]);
    expect(unchanged.status).toBe(200);
    expect(await harness.settledFactsOf(unchanged)).toEqual([]);

    expect(tagIdsOf(await assign('sync', ws, contact, []))).toEqual([]);
  });

  it('answers 422 at /data/attributes/tag_ids when a contact would hold more than 1,000 tags, and lets it shed them', async () => {
    const ws = harness.workspace();
    const contact = await contactId(ws, 'Collector');
    // 1,000 tags held already, written as the service writes them (a thousand requests would only be slower).
    const base = harness.id();
    await harness.dataSourceOf(harness.service).query(
      `WITH ids AS (SELECT $1::bigint + n AS id FROM generate_series(0, 999) AS n),
            made AS (INSERT INTO tags (id, workspace_id, name, color, created_at, updated_at)
                     SELECT id, $2, 'bulk-' || id, NULL, now(), now() FROM ids RETURNING id)
       INSERT INTO contact_tags (contact_id, tag_id, workspace_id, attached_at) SELECT $3, id, $2, now() FROM made`,
      [base * 1000, ws, contact],
    );
    const one = await tagId(ws, 'one-too-many');

    const refused = await assign('attach', ws, contact, [one]);
    expect(refused.status).toBe(422);
    expect(refused.errors).toEqual([
      expect.objectContaining({ status: '422', source: { pointer: '/data/attributes/tag_ids' } }),
    ]);
    expect(await harness.settledFactsOf(refused)).toEqual([]);
    // Detaching is always possible, and makes room for the tag.
    expect((await assign('detach', ws, contact, [base * 1000])).status).toBe(200);
    expect((await assign('attach', ws, contact, [one])).status).toBe(200);
  });

  it('answers 422 at the pointer of each body id that names nothing, another workspace’s tag included, and changes nothing', async () => {
    const ws = harness.workspace();
    const mine = await tagId(ws, 'mine');
    const theirs = await tagId(harness.workspace(), 'theirs');
    const contact = await contactId(ws, 'Someone');
    await assign('sync', ws, contact, [mine]);

    const unknownTags = await assign('sync', ws, contact, [mine, theirs, 99_999_999]);
    expect(unknownTags.status).toBe(422);
    expect(unknownTags.errors).toEqual([
      {
        status: '422',
        title: 'Validation Error',
        detail: `Tag ${theirs} was not found.`,
        source: { pointer: '/data/attributes/tag_ids/1' },
      },
      {
        status: '422',
        title: 'Validation Error',
        detail: 'Tag 99999999 was not found.',
        source: { pointer: '/data/attributes/tag_ids/2' },
      },
    ]);
    const unknownContact = await assign('attach', ws, Number.MAX_SAFE_INTEGER, [mine]);
    expect(unknownContact.status).toBe(422);
    expect(unknownContact.errors).toEqual([
      {
        status: '422',
        title: 'Validation Error',
        detail: `Contact ${Number.MAX_SAFE_INTEGER} was not found.`,
        source: { pointer: '/data/attributes/contact_id' },
      },
    ]);

    const read = await harness.get(`/internal/v1/contacts/${contact}`, ws);
    expect((read.body.data as { tags: Array<{ id: number }> }).tags.map((tag) => tag.id)).toEqual([mine]);
    expect(await harness.get(`/internal/v1/contacts?filter[tag]=${mine}`, ws)).toMatchObject({
      body: { meta: { total: 1 } },
    });
    expect(await harness.get('/internal/v1/contacts?filter[tag]=mine', ws)).toMatchObject({
      body: { meta: { total: 1 } },
    });
  });
});

describe('DELETE /api/v1/tags/{id}', () => {
  it('deletes with 204, takes the tag off its contacts, and answers 404 afterwards', async () => {
    const ws = harness.workspace();
    const tag = await tagId(ws, 'doomed');
    const contact = await contactId(ws, 'Holder');
    await assign('attach', ws, contact, [tag]);

    const deleted = await harness.request(TAG_REQUEST_TYPES.delete, ws, { tag_id: tag });
    expect(deleted.status).toBe(204);
    expect(deleted.resource).toBeUndefined();
    expect((await harness.factsOf(deleted))[0]).toMatchObject({ type: 'tag.deleted', data: { tag_id: tag } });

    const read = await harness.get(`/internal/v1/contacts/${contact}`, ws);
    expect((read.body.data as { tags: unknown[] }).tags).toEqual([]);
    expect((await harness.get(`/internal/v1/tags/${tag}`, ws)).status).toBe(404);
    expect((await harness.request(TAG_REQUEST_TYPES.delete, ws, { tag_id: tag })).status).toBe(404);
  });
});

describe('GET /internal/v1/tags', () => {
  it('lists the workspace tags by id with page meta, and reads one', async () => {
    const ws = harness.workspace();
    const ids = [await tagId(ws, 'one'), await tagId(ws, 'two'), await tagId(ws, 'three')];
    const list = await harness.get('/internal/v1/tags?per_page=2', ws);
    expect(list.status).toBe(200);
    expect((list.body.data as Array<{ id: number }>).map((tag) => tag.id)).toEqual(ids.slice(0, 2));
    expect(list.body.meta).toEqual({ current_page: 1, per_page: 2, total: 3, last_page: 2 });
    const one = await harness.get(`/internal/v1/tags/${ids[1]}`, ws);
    expect(one.body.data).toMatchObject({ id: ids[1], name: 'two' });
    expect((await harness.get(`/internal/v1/tags/${ids[1]}`, harness.workspace())).status).toBe(404);
    expect((await harness.get('/internal/v1/tags/abc', ws)).status).toBe(404);
  });
});
