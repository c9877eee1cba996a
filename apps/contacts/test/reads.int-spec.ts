import { ContactsHarness } from './contacts.harness';

let harness: ContactsHarness;
beforeAll(async () => {
  harness = await ContactsHarness.start();
});

afterAll(async () => {
  await harness?.stop();
});

type Errors = { errors: Array<{ status: string; title: string; source?: Record<string, string> }> };

async function expectRefused(path: string, workspaceId: number, parameter: string): Promise<void> {
  const reply = await harness.get(path, workspaceId);
  expect([path, reply.status]).toEqual([path, 422]);
  expect((reply.body as Errors).errors).toContainEqual(
    expect.objectContaining({
      status: '422',
      title: 'Validation Error',
      source: { pointer: `/data/attributes/${parameter}`, parameter },
    }),
  );
}

describe('the internal list reads refuse what one caller sends that the store cannot compare', () => {
  it.each(['phone', 'email', 'external_id', 'name', 'search', 'tag'])(
    'answers U+0000 in filter[%s] with 422 naming it, and keeps answering the workspace',
    async (filter) => {
      const ws = harness.workspace();
      await harness.upsert(ws, { name: 'Ann', phone: '+14155550700' });
      await expectRefused(`/internal/v1/contacts?filter[${filter}]=%00`, ws, `filter[${filter}]`);
      await expectRefused(`/internal/v1/contacts?filter[${filter}]=a%00b`, ws, `filter[${filter}]`);
      // The bytes of a lone surrogate are not UTF-8: the parser would have kept them as raw text.
      await expectRefused(`/internal/v1/contacts?filter[${filter}]=%ED%A0%80`, ws, `filter[${filter}]`);
      const list = await harness.get('/internal/v1/contacts', ws);
      expect(list.status).toBe(200);
    },
  );

  it('answers U+0000 in the event filters with 422', async () => {
    const ws = harness.workspace();
    await expectRefused('/internal/v1/events?filter[name]=%00', ws, 'filter[name]');
    await expectRefused('/internal/v1/events?name=%00', ws, 'name');
    await expectRefused('/internal/v1/events?filter[contact_id]=1e3', ws, 'filter[contact_id]');
  });

  it('answers a filter the list does not have with 422 naming it', async () => {
    const ws = harness.workspace();
    await expectRefused('/internal/v1/contacts?filter[emial]=a@example.com', ws, 'filter[emial]');
    await expectRefused('/internal/v1/contacts?filter=x', ws, 'filter');
    await expectRefused('/internal/v1/events?filter[phone]=1', ws, 'filter[phone]');
    await expectRefused('/internal/v1/tags?filter[name]=vip', ws, 'filter[name]');
  });

  it('answers a page or per_page out of range with 422 naming it', async () => {
    const ws = harness.workspace();
    for (const list of ['contacts', 'events', 'tags']) {
      await expectRefused(`/internal/v1/${list}?page=0`, ws, 'page');
      await expectRefused(`/internal/v1/${list}?page=99999999999999999999`, ws, 'page');
      await expectRefused(`/internal/v1/${list}?per_page=101`, ws, 'per_page');
      await expectRefused(`/internal/v1/${list}?per_page=-1`, ws, 'per_page');
    }
  });

  it('filters contacts by their whole name, in any case', async () => {
    const ws = harness.workspace();
    await harness.upsert(ws, { name: 'Ann Lee', phone: '+14155550701' });
    await harness.upsert(ws, { name: 'Ann', phone: '+14155550702' });
    const reply = await harness.get('/internal/v1/contacts?filter[name]=ann%20LEE', ws);
    expect(reply.status).toBe(200);
    expect((reply.body.data as Array<{ name: string }>).map((contact) => contact.name)).toEqual(['Ann Lee']);
  });
});

describe('ids in the internal read paths', () => {
  it('answers 404 for an id past 2^31 − 1 up to 2^53 − 1 that names nothing, and for every other form', async () => {
    const ws = harness.workspace();
    for (const id of ['2147483648', '9007199254740991', '9007199254740992', '0', '1e3', '007']) {
      for (const list of ['contacts', 'tags']) {
        const reply = await harness.get(`/internal/v1/${list}/${id}`, ws);
        expect([list, id, reply.status]).toEqual([list, id, 404]);
      }
    }
    const events = await harness.get('/internal/v1/events?filter[contact_id]=9007199254740991', ws);
    expect(events.status).toBe(200);
  });
});
