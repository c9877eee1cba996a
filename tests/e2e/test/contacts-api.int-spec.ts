import { System, type Answer } from '../src';

/**
 * The contacts, tags and events rules of issue 4, through the public HTTP API only: the gateway and the
 * contacts service run as processes, every check is on a status code and a body a customer would see.
 */

interface ErrorObject {
  status: string;
  title: string;
  detail: string;
  source?: { pointer: string };
}
type Errors = { errors: ErrorObject[] };

interface Contact {
  id: number;
  name: string | null;
  phone: string | null;
  email: string | null;
  external_id: string | null;
  source: string | null;
  data: Record<string, unknown>;
  marketing_consent: Record<string, boolean | null>;
  tags: Array<{ id: number; name: string; color: string | null }>;
  channels: Record<string, string | null>;
  created_at: string;
  updated_at: string;
}

interface Tag {
  id: number;
  name: string;
  color: string | null;
  created_at: string;
  updated_at: string;
}

interface RecordedEvent {
  id: number;
  name: string;
  contact_id: number;
  data: Record<string, unknown>;
  occurred_at: string;
  received_at: string;
  idempotency_key: string | null;
}

interface Meta {
  current_page: number;
  per_page: number;
  total: number;
  last_page: number;
}

interface BatchResult {
  index: number;
  status: number;
  contact?: Contact;
  errors?: ErrorObject[];
}

type One<T> = { data: T };
type Page<T> = { data: T[]; meta: Meta };

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CONSENT_CHANNELS = [
  'whatsapp',
  'sms',
  'email',
  'rcs',
  'telegram',
  'messenger',
  'instagram',
  'browser_push',
] as const;
const NO_CONSENT = Object.fromEntries(CONSENT_CHANNELS.map((channel) => [channel, null]));
const NO_CHANNELS = { telegram: null, messenger: null, instagram: null, browser_push: null };
/** The plan whose stored-contacts limit this suite lowers; the other tests use `pro`. */
const LIMITED_PLAN = 'agency';
const LIMIT = 3;

let system: System;

beforeAll(async () => {
  system = await System.start(['gateway', 'contacts'], {
    [`PLAN_${LIMITED_PLAN.toUpperCase()}_STORED_CONTACTS`]: String(LIMIT),
  });
}, 120000);

afterAll(async () => {
  await system?.stop();
});

/** A fresh workspace with every permission, and calls made with its key. */
async function tenant(plan = 'pro') {
  const { key, workspaceId } = await system.tenant(plan);
  const call = <T>(method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    system.call<T>(method, path, {
      key,
      ...(body !== undefined ? { body } : {}),
      ...(headers ? { headers } : {}),
    });
  return {
    workspaceId,
    call,
    upsert: (body: object) => call<One<Contact> & Errors>('POST', '/api/v1/contacts/upsert', body),
    update: (id: number | string, body: object) =>
      call<One<Contact> & Errors>('PUT', `/api/v1/contacts/${id}`, body),
    contact: async (id: number): Promise<Contact> => {
      const answer = await call<One<Contact>>('GET', `/api/v1/contacts/${id}`);
      expect(answer.status).toBe(200);
      return answer.body.data;
    },
    contacts: async (query = ''): Promise<Page<Contact>> => {
      const answer = await call<Page<Contact>>('GET', `/api/v1/contacts${query}`);
      expect(answer.status).toBe(200);
      return answer.body;
    },
    createTag: (body: object) => call<One<Tag> & Errors>('POST', '/api/v1/tags', body),
    assign: (kind: 'sync' | 'attach' | 'detach', contactId: number, tagIds: number[]) =>
      call<One<Contact> & Errors>('POST', `/api/v1/tags/${kind}`, { contact_id: contactId, tag_ids: tagIds }),
    event: (body: object, idempotencyKey?: string) =>
      call<One<RecordedEvent> & Errors>(
        'POST',
        '/api/v1/events',
        { name: 'order.paid', ...body },
        idempotencyKey !== undefined ? { 'idempotency-key': idempotencyKey } : undefined,
      ),
    events: async (query = ''): Promise<Page<RecordedEvent>> => {
      const answer = await call<Page<RecordedEvent>>('GET', `/api/v1/events${query}`);
      expect(answer.status).toBe(200);
      return answer.body;
    },
  };
}

/** A 422 whose JSON:API errors point at exactly these fields (one or more errors per field). */
function expectValidation(answer: Answer<unknown>, pointers: string[]): void {
  expect([answer.status, answer.headers.get('content-type')]).toEqual([422, 'application/json']);
  const { errors } = answer.body as Errors;
  expect(errors.length).toBeGreaterThanOrEqual(pointers.length);
  for (const error of errors) {
    expect(error).toEqual({
      status: '422',
      title: 'Validation Error',
      detail: expect.stringMatching(/\S/),
      // Query parameters also name themselves in `source.parameter`.
      source: expect.objectContaining({ pointer: expect.any(String) }),
    });
  }
  expect([...new Set(errors.map((error) => error.source!.pointer))].sort()).toEqual([...pointers].sort());
}

function expectNotFound(answer: Answer<unknown>, detail: string, pointer?: string): void {
  expect([answer.status, answer.headers.get('content-type')]).toEqual([404, 'application/json']);
  expect((answer.body as Errors).errors).toEqual([
    { status: '404', title: 'Not Found', detail, ...(pointer !== undefined ? { source: { pointer } } : {}) },
  ]);
}

/**
 * A syntactically valid address of `length` characters (at least 198): a 64-character local part and
 * labels of at most 63. Addresses are valid up to 254 characters (RFC 5321), one less than the 255 limit.
 */
function emailOf(length: number): string {
  return `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(length - 197)}.com`;
}

describe('POST /api/v1/contacts/upsert', () => {
  it('creates a contact with 201 and the whole contact shape, readable with GET', async () => {
    const t = await tenant();
    const answer = await t.upsert({
      name: 'Ada Lovelace',
      phone: '+44 7700 900123',
      email: 'ada@example.com',
      external_id: 'crm-1',
      source: 'crm',
      data: { plan: 'gold', seats: 3 },
      marketing_consent: { sms: true, email: false },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      data: {
        id: expect.any(Number),
        name: 'Ada Lovelace',
        phone: '+447700900123',
        email: 'ada@example.com',
        external_id: 'crm-1',
        source: 'crm',
        data: { plan: 'gold', seats: 3 },
        marketing_consent: { ...NO_CONSENT, sms: true, email: false },
        tags: [],
        channels: NO_CHANNELS,
        created_at: expect.stringMatching(ISO_MS),
        updated_at: expect.stringMatching(ISO_MS),
      },
    });
    const { id } = answer.body.data;
    expect(Number.isSafeInteger(id) && id > 0).toBe(true);
    expect(await t.contact(id)).toEqual(answer.body.data);
    expect((await t.contacts()).meta.total).toBe(1);
  });

  it('deduplicates by phone within the workspace: the same number written differently updates with 200', async () => {
    const t = await tenant();
    const first = await t.upsert({ name: 'First', phone: '+1 (415) 555-0123' });
    expect(first.status).toBe(201);
    const id = first.body.data.id;
    for (const [phone, name] of [
      ['0014155550123', 'Second'],
      ['14155550123', 'Third'],
      ['+1 415.555.0123', 'Fourth'],
    ] as const) {
      const again = await t.upsert({ name, phone });
      expect([phone, again.status]).toEqual([phone, 200]);
      expect(again.body.data).toMatchObject({ id, name, phone: '+14155550123' });
    }
    const list = await t.contacts();
    expect(list.meta.total).toBe(1);
    expect(list.data[0]).toMatchObject({ id, name: 'Fourth', phone: '+14155550123' });

    // Another workspace with the same number gets a contact of its own.
    const other = await tenant();
    const elsewhere = await other.upsert({ name: 'Other', phone: '+14155550123' });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.data.id).not.toBe(id);
    expect((await other.contacts()).data.map((contact) => contact.name)).toEqual(['Other']);
    expect((await t.contact(id)).name).toBe('Fourth');

    // Without a phone match, the upsert matches by external_id (apps/contacts/README.md).
    const byExternalId = await t.upsert({ name: 'Ext', external_id: 'crm-9' });
    expect(byExternalId.status).toBe(201);
    const again = await t.upsert({ name: 'Ext 2', external_id: 'crm-9', phone: '+14155550124' });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({
      id: byExternalId.body.data.id,
      name: 'Ext 2',
      phone: '+14155550124',
    });
    expect((await t.contacts()).meta.total).toBe(2);
  });

  it('answers 422 with a pointer per invalid field, several at once, and stores nothing', async () => {
    const t = await tenant();
    const cases: Array<[string, unknown, string[]]> = [
      ['name missing', { phone: '+14155550100' }, ['/data/attributes/name']],
      ['name empty', { name: '', phone: '+14155550100' }, ['/data/attributes/name']],
      ['name not a string', { name: 7 }, ['/data/attributes/name']],
      ['phone that is not a number', { name: 'A', phone: 'not a phone' }, ['/data/attributes/phone']],
      ['phone without a country code', { name: 'A', phone: '(415) 555-0123' }, ['/data/attributes/phone']],
      ['phone too long', { name: 'A', phone: '1'.repeat(31) }, ['/data/attributes/phone']],
      ['invalid email', { name: 'A', email: 'nope' }, ['/data/attributes/email']],
      ['email too long', { name: 'A', email: emailOf(256) }, ['/data/attributes/email']],
      ['unknown field', { name: 'A', shoe_size: 44 }, ['/data/attributes/shoe_size']],
      ['data not an object', { name: 'A', data: 'x' }, ['/data/attributes/data']],
      ['name of white space only', { name: ' \u00a0\t' }, ['/data/attributes/name']],
      [
        'data over 64 KiB of JSON',
        { name: 'A', data: { blob: 'é'.repeat(32 * 1024) } },
        ['/data/attributes/data'],
      ],
      [
        'unknown consent channel',
        { name: 'A', marketing_consent: { pigeon: true } },
        ['/data/attributes/marketing_consent'],
      ],
      [
        'consent not boolean',
        { name: 'A', marketing_consent: { sms: 'yes' } },
        ['/data/attributes/marketing_consent'],
      ],
      [
        'several errors',
        { email: 'nope', phone: 12, shoe_size: 44 },
        [
          '/data/attributes/name',
          '/data/attributes/email',
          '/data/attributes/phone',
          '/data/attributes/shoe_size',
        ],
      ],
    ];
    for (const [name, body, pointers] of cases) {
      const answer = await t.call('POST', '/api/v1/contacts/upsert', body);
      try {
        expectValidation(answer, pointers);
      } catch (error) {
        throw new Error(`${name}: ${JSON.stringify(answer.body)}\n${String(error)}`);
      }
    }
    const unparseable = await t.upsert({ name: 'A', phone: 'not a phone' });
    expect(unparseable.body.errors).toEqual([
      {
        status: '422',
        title: 'Validation Error',
        detail: expect.stringContaining('phone'),
        source: { pointer: '/data/attributes/phone' },
      },
    ]);
    expect((await t.contacts()).meta.total).toBe(0);
  });
});

describe('POST /api/v1/contacts/batch', () => {
  it('answers 200 with one result per element (its contact without data and tags): a bad element fails alone, the others are applied', async () => {
    const t = await tenant();
    const answer = await t.call<
      One<{ results: BatchResult[]; summary: { created: number; updated: number; failed: number } }>
    >('POST', '/api/v1/contacts/batch', {
      contacts: [
        { name: 'One', phone: '+14155550101' },
        { name: 'Bad email', email: 'nope' },
        { name: 'Bad phone', phone: 'abc' },
        { name: 'One again', phone: '001 415 555 0101' },
        { name: 'Unknown field', shoe_size: 44 },
        { name: 'Two', email: 'two@example.com' },
        { phone: '+14155550102' },
      ],
    });
    expect(answer.status).toBe(200);
    const { results, summary } = answer.body.data;
    expect(results.map((result) => [result.index, result.status])).toEqual([
      [0, 201],
      [1, 422],
      [2, 422],
      [3, 200],
      [4, 422],
      [5, 201],
      [6, 422],
    ]);
    expect(summary).toEqual({ created: 2, updated: 1, failed: 4 });
    /** The fields an element's errors point at (one error per failed constraint). */
    const pointersOf = (index: number): string[] => {
      const errors = results[index]!.errors!;
      for (const error of errors) {
        expect(error).toEqual({
          status: '422',
          title: 'Validation Error',
          detail: expect.stringMatching(/\S/),
          source: { pointer: expect.any(String) },
        });
      }
      return [...new Set(errors.map((error) => error.source!.pointer))];
    };
    expect(pointersOf(1)).toEqual(['/data/attributes/contacts/1/email']);
    expect(pointersOf(2)).toEqual(['/data/attributes/contacts/2/phone']);
    expect(pointersOf(4)).toEqual(['/data/attributes/contacts/4/shoe_size']);
    expect(pointersOf(6)).toEqual(['/data/attributes/contacts/6/name']);
    expect(results[0]!.contact).toMatchObject({
      name: 'One',
      phone: '+14155550101',
      marketing_consent: NO_CONSENT,
    });
    expect(results[3]!.contact).toMatchObject({ id: results[0]!.contact!.id, name: 'One again' });
    // The parts of a contact that grow with it stay out of a batch answer, so it stays bounded.
    expect(results[0]!.contact).not.toHaveProperty('data');
    expect(results[0]!.contact).not.toHaveProperty('tags');
    for (const index of [1, 2, 4, 6]) expect(results[index]!.contact).toBeUndefined();

    const list = await t.contacts();
    expect(list.meta.total).toBe(2);
    expect(list.data.map((contact) => contact.name).sort()).toEqual(['One again', 'Two']);
  });

  it('takes up to 1,000 contacts and refuses a larger, empty or missing list with 422 at /data/attributes/contacts', async () => {
    const t = await tenant();
    const thousand = Array.from({ length: 1000 }, (_, i) => ({
      name: `C${i}`,
      phone: `+1415555${String(1000 + i)}`,
    }));
    const full = await t.call<One<{ results: BatchResult[]; summary: object }>>(
      'POST',
      '/api/v1/contacts/batch',
      { contacts: thousand },
    );
    expect(full.status).toBe(200);
    expect(full.body.data.results).toHaveLength(1000);
    expect(full.body.data.summary).toEqual({ created: 1000, updated: 0, failed: 0 });

    const over = await t.call('POST', '/api/v1/contacts/batch', {
      contacts: [...thousand, { name: 'One too many', phone: '+14155552000' }],
    });
    expectValidation(over, ['/data/attributes/contacts']);
    expect((over.body as Errors).errors[0]!.detail).toMatch(/1000/);
    expectValidation(await t.call('POST', '/api/v1/contacts/batch', { contacts: [] }), [
      '/data/attributes/contacts',
    ]);
    expectValidation(await t.call('POST', '/api/v1/contacts/batch', {}), ['/data/attributes/contacts']);
    expectValidation(await t.call('POST', '/api/v1/contacts/batch', { contacts: ['x'] }), [
      '/data/attributes/contacts',
    ]);

    const list = await t.contacts('?per_page=1');
    expect(list.meta.total).toBe(1000);
    expect((await t.contacts('?filter[phone]=%2B14155552000')).meta.total).toBe(0);
  });
});

describe('PUT /api/v1/contacts/{contact_id}', () => {
  it('merges data, leaves omitted consent channels unchanged and answers the whole contact', async () => {
    const t = await tenant();
    const created = await t.upsert({
      name: 'Grace',
      phone: '+14155550301',
      email: 'old@example.com',
      source: 'shop',
      data: { plan: 'gold', city: 'Oslo' },
      marketing_consent: { sms: true, whatsapp: false },
    });
    const id = created.body.data.id;
    const answer = await t.update(id, {
      email: 'grace@example.com',
      data: { city: 'Bergen', team: 'blue' },
      marketing_consent: { email: true },
    });
    expect(answer.status).toBe(200);
    const expected = {
      ...created.body.data,
      email: 'grace@example.com',
      data: { plan: 'gold', city: 'Bergen', team: 'blue' },
      marketing_consent: { ...NO_CONSENT, sms: true, whatsapp: false, email: true },
      updated_at: expect.stringMatching(ISO_MS),
    };
    expect(answer.body.data).toEqual(expected);
    expect(await t.contact(id)).toEqual(answer.body.data);

    // Revoking one channel touches only that one; null clears a clearable field.
    const revoked = await t.update(id, { marketing_consent: { sms: false }, source: null });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({
      name: 'Grace',
      source: null,
      data: { plan: 'gold', city: 'Bergen', team: 'blue' },
      marketing_consent: { ...NO_CONSENT, sms: false, whatsapp: false, email: true },
    });
  });

  it('answers 404 for an unknown, a non-numeric and another workspace’s contact, changing nothing', async () => {
    const t = await tenant();
    const other = await tenant();
    const theirs = (await other.upsert({ name: 'Theirs', phone: '+14155550311' })).body.data.id;
    for (const id of ['99999999', 'abc', '1.5', '-1', String(theirs)]) {
      expectNotFound(await t.update(id, { name: 'Stolen' }), `Contact ${id} was not found.`);
      expectNotFound(await t.call('GET', `/api/v1/contacts/${id}`), `Contact ${id} was not found.`);
    }
    expect((await other.contact(theirs)).name).toBe('Theirs');
  });

  it('refuses invalid fields, an unreadable phone and another contact’s phone with 422', async () => {
    const t = await tenant();
    await t.upsert({ name: 'Holder', phone: '+14155550401' });
    const id = (await t.upsert({ name: 'Other', phone: '+14155550402' })).body.data.id;
    expectValidation(await t.update(id, { phone: '+1 415 555 0401', name: 'Changed' }), [
      '/data/attributes/phone',
    ]);
    expectValidation(await t.update(id, { phone: 'call me' }), ['/data/attributes/phone']);
    expectValidation(await t.update(id, { email: 'nope', name: '', favourite: 'x' }), [
      '/data/attributes/email',
      '/data/attributes/name',
      '/data/attributes/favourite',
    ]);
    expectValidation(await t.update(id, { name: null }), ['/data/attributes/name']);
    expectValidation(await t.update(id, { name: '  ' }), ['/data/attributes/name']);
    expect((await t.contact(id)).name).toBe('Other');
  });

  it('refuses every identifier another contact holds by its field, naming it in the detail, and changes neither contact (§2)', async () => {
    const t = await tenant();
    const holder = (
      await t.upsert({
        name: 'Holder',
        phone: '+14155550411',
        email: 'held@example.com',
        external_id: 'crm-h',
      })
    ).body.data.id;
    const id = (await t.upsert({ name: 'Other', phone: '+14155550412' })).body.data.id;
    const refused = await t.update(id, {
      name: 'Changed',
      phone: '+14155550411',
      email: 'HELD@example.com',
      external_id: 'crm-h',
    });
    expectValidation(refused, [
      '/data/attributes/phone',
      '/data/attributes/email',
      '/data/attributes/external_id',
    ]);
    for (const error of refused.body.errors) {
      const field = error.source!.pointer.split('/').pop()!;
      expect(error.detail).toContain(field);
      expect(error.detail).toContain(`contact ${holder}`);
    }
    expect(await t.contact(id)).toMatchObject({ name: 'Other', phone: '+14155550412', email: null });
    expect(await t.contact(holder)).toMatchObject({
      phone: '+14155550411',
      email: 'held@example.com',
      external_id: 'crm-h',
    });
    const document = await system.call<{
      paths: Record<
        string,
        { put?: { description?: string; responses: Record<string, { description: string }> } }
      >;
    }>('GET', '/openapi.json');
    const put = document.body.paths['/api/v1/contacts/{contact_id}']!.put!;
    expect(put.description).toMatch(/another contact/);
    expect(put.responses['422']!.description).toMatch(/another contact holds/);
  });
});

describe('PUT /api/v1/contacts/{contact_id}/channels/{channel}', () => {
  it('links a channel id and moves it from the contact that held it', async () => {
    const t = await tenant();
    const a = (await t.upsert({ name: 'A' })).body.data.id;
    const b = (await t.upsert({ name: 'B' })).body.data.id;
    const first = await t.call<One<Contact>>('PUT', `/api/v1/contacts/${a}/channels/telegram`, {
      external_id: 'chat-42',
    });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      id: a,
      name: 'A',
      channels: { ...NO_CHANNELS, telegram: 'chat-42' },
    });

    const moved = await t.call<One<Contact>>('PUT', `/api/v1/contacts/${b}/channels/telegram`, {
      external_id: 'chat-42',
    });
    expect(moved.status).toBe(200);
    expect(moved.body.data.channels).toEqual({ ...NO_CHANNELS, telegram: 'chat-42' });
    expect((await t.contact(a)).channels).toEqual(NO_CHANNELS);

    // The same id on another channel is another id.
    const messenger = await t.call<One<Contact>>('PUT', `/api/v1/contacts/${a}/channels/messenger`, {
      external_id: 'chat-42',
    });
    expect(messenger.body.data.channels).toEqual({ ...NO_CHANNELS, messenger: 'chat-42' });
    expect((await t.contact(b)).channels).toEqual({ ...NO_CHANNELS, telegram: 'chat-42' });
  });

  it('answers 404 for a channel that cannot be linked or an unknown contact, 422 without an external_id', async () => {
    const t = await tenant();
    const id = (await t.upsert({ name: 'A' })).body.data.id;
    for (const channel of ['whatsapp', 'sms', 'fax']) {
      const answer = await t.call('PUT', `/api/v1/contacts/${id}/channels/${channel}`, { external_id: '1' });
      expectNotFound(
        answer,
        `Channel ${channel} cannot be linked; use one of telegram, messenger, instagram, browser_push.`,
      );
    }
    expectNotFound(
      await t.call('PUT', '/api/v1/contacts/99999999/channels/telegram', { external_id: '1' }),
      'Contact 99999999 was not found.',
    );
    for (const body of [{}, { external_id: '' }, { external_id: 42 }, { external_id: 'x'.repeat(256) }]) {
      expectValidation(await t.call('PUT', `/api/v1/contacts/${id}/channels/telegram`, body), [
        '/data/attributes/external_id',
      ]);
    }
    expect((await t.contact(id)).channels).toEqual(NO_CHANNELS);
  });
});

describe('GET /api/v1/contacts', () => {
  it('pages with meta and filters by phone, email, external_id, tag and search', async () => {
    const t = await tenant();
    await t.upsert({ name: 'Alice Smith', phone: '+14155550601', email: 'Alice@Example.com' });
    const bob = (await t.upsert({ name: 'Bob Jones', phone: '+14155550602', external_id: 'crm-bob' })).body
      .data.id;
    await t.upsert({ name: 'Carol Smith', email: 'carol@example.com' });

    const all = await t.contacts();
    expect(all.meta).toEqual({ current_page: 1, per_page: 25, total: 3, last_page: 1 });
    const page = await t.contacts('?per_page=2&page=2');
    expect(page.meta).toEqual({ current_page: 2, per_page: 2, total: 3, last_page: 2 });
    expect(page.data.map((contact) => contact.name)).toEqual(['Carol Smith']);
    expect((await t.contacts('?per_page=100')).meta.per_page).toBe(100);

    for (const query of ['?per_page=101', '?per_page=0', '?per_page=abc']) {
      expectValidation(await t.call('GET', `/api/v1/contacts${query}`), ['/data/attributes/per_page']);
    }
    expectValidation(await t.call('GET', '/api/v1/contacts?page=0'), ['/data/attributes/page']);

    const names = async (query: string) => (await t.contacts(query)).data.map((contact) => contact.name);
    expect(await names('?filter[email]=alice@example.COM')).toEqual(['Alice Smith']);
    expect(await names('?filter[phone]=%2B1%20415%20555%200602')).toEqual(['Bob Jones']);
    expect(await names('?filter[external_id]=crm-bob')).toEqual(['Bob Jones']);
    expect(await names('?filter[search]=smith')).toEqual(['Alice Smith', 'Carol Smith']);
    expect(await names('?filter[search]=0602')).toEqual(['Bob Jones']);

    const tag = (await t.createTag({ name: 'vip' })).body.data.id;
    await t.assign('attach', bob, [tag]);
    expect(await names(`?filter[tag]=${tag}`)).toEqual(['Bob Jones']);
    expect(await names('?filter[tag]=vip')).toEqual(['Bob Jones']);

    // Another workspace sees none of them.
    expect((await (await tenant()).contacts()).meta.total).toBe(0);
  });
});

describe('tags', () => {
  it('creates with an integer id, reads, lists, patches and deletes (204, then 404)', async () => {
    const t = await tenant();
    const created = await t.createTag({ name: 'VIP', color: '#FF8800' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      data: {
        id: expect.any(Number),
        name: 'VIP',
        color: '#FF8800',
        created_at: expect.stringMatching(ISO_MS),
        updated_at: expect.stringMatching(ISO_MS),
      },
    });
    const id = created.body.data.id;
    expect(Number.isInteger(id)).toBe(true);
    const short = await t.createTag({ name: 'Short', color: '#abc' });
    expect([short.status, short.body.data.color]).toEqual([201, '#abc']);
    const plain = await t.createTag({ name: 'Plain' });
    expect([plain.status, plain.body.data.color]).toEqual([201, null]);

    const one = await t.call<One<Tag>>('GET', `/api/v1/tags/${id}`);
    expect([one.status, one.body.data]).toEqual([200, created.body.data]);
    const list = await t.call<Page<Tag>>('GET', '/api/v1/tags?per_page=2');
    expect(list.status).toBe(200);
    expect(list.body.data.map((tag) => tag.id)).toEqual([id, short.body.data.id]);
    expect(list.body.meta).toEqual({ current_page: 1, per_page: 2, total: 3, last_page: 2 });

    const patched = await t.call<One<Tag>>('PATCH', `/api/v1/tags/${id}`, { name: 'Gold', color: '#000000' });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ id, name: 'Gold', color: '#000000' });
    const renamedOnly = await t.call<One<Tag>>('PATCH', `/api/v1/tags/${id}`, { name: 'Platinum' });
    expect(renamedOnly.body.data).toMatchObject({ name: 'Platinum', color: '#000000' });
    const cleared = await t.call<One<Tag>>('PATCH', `/api/v1/tags/${id}`, { color: null });
    expect(cleared.body.data).toMatchObject({ name: 'Platinum', color: null });
    expect((await t.call<One<Tag>>('GET', `/api/v1/tags/${id}`)).body.data).toMatchObject({
      name: 'Platinum',
      color: null,
    });

    const deleted = await t.call('DELETE', `/api/v1/tags/${id}`);
    expect([deleted.status, deleted.body]).toEqual([204, undefined]);
    expectNotFound(await t.call('GET', `/api/v1/tags/${id}`), `Tag ${id} was not found.`);
    expectNotFound(await t.call('DELETE', `/api/v1/tags/${id}`), `Tag ${id} was not found.`);
    expectNotFound(await t.call('PATCH', `/api/v1/tags/${id}`, { name: 'Back' }), `Tag ${id} was not found.`);
    expect((await t.call<Page<Tag>>('GET', '/api/v1/tags')).body.meta.total).toBe(2);
  });

  it('refuses a colour that is not a hex code, a missing or duplicate name, and unknown fields with 422', async () => {
    const t = await tenant();
    for (const color of ['red', '#12345g', 'ff8800', '#ff88', '#ff88000', 12]) {
      expectValidation(await t.createTag({ name: `c-${String(color)}`, color }), ['/data/attributes/color']);
    }
    expectValidation(await t.createTag({ color: '#fff' }), ['/data/attributes/name']);
    expectValidation(await t.createTag({ name: '' }), ['/data/attributes/name']);
    expectValidation(await t.createTag({ name: 'x', colour: '#fff' }), ['/data/attributes/colour']);
    expectValidation(await t.createTag({ name: 7, color: 'red' }), [
      '/data/attributes/name',
      '/data/attributes/color',
    ]);

    expect((await t.createTag({ name: 'Customers' })).status).toBe(201);
    const duplicate = await t.createTag({ name: 'Customers' });
    expectValidation(duplicate, ['/data/attributes/name']);
    expect((await (await tenant()).createTag({ name: 'Customers' })).status).toBe(201);

    const id = (await t.createTag({ name: 'Other' })).body.data.id;
    expectValidation(await t.call('PATCH', `/api/v1/tags/${id}`, { color: 'blue' }), [
      '/data/attributes/color',
    ]);
    expectValidation(await t.call('PATCH', `/api/v1/tags/${id}`, { name: 'Customers' }), [
      '/data/attributes/name',
    ]);
    expect((await t.call<One<Tag>>('GET', `/api/v1/tags/${id}`)).body.data).toMatchObject({
      name: 'Other',
      color: null,
    });
    const list = await t.call<Page<Tag>>('GET', '/api/v1/tags');
    expect(list.body.data.map((tag) => tag.name)).toEqual(['Customers', 'Other']);
  });

  it('syncs (replaces all), attaches (adds) and detaches (removes), as GET of the contact shows', async () => {
    const t = await tenant();
    const [a, b, c] = [
      (await t.createTag({ name: 'a', color: '#111111' })).body.data.id,
      (await t.createTag({ name: 'b' })).body.data.id,
      (await t.createTag({ name: 'c' })).body.data.id,
    ];
    const contact = (await t.upsert({ name: 'Tagged', phone: '+14155550701' })).body.data.id;
    const tagIds = async () => (await t.contact(contact)).tags.map((tag) => tag.id);

    const synced = await t.assign('sync', contact, [b, a]);
    expect(synced.status).toBe(200);
    expect(synced.body.data.tags).toEqual([
      { id: a, name: 'a', color: '#111111' },
      { id: b, name: 'b', color: null },
    ]);
    expect(await tagIds()).toEqual([a, b]);

    expect((await t.assign('attach', contact, [c, a])).status).toBe(200);
    expect(await tagIds()).toEqual([a, b, c]);
    expect((await t.assign('detach', contact, [a])).status).toBe(200);
    expect(await tagIds()).toEqual([b, c]);
    expect((await t.assign('sync', contact, [c])).body.data.tags.map((tag) => tag.id)).toEqual([c]);
    expect(await tagIds()).toEqual([c]);
    expect((await t.assign('attach', contact, [c])).status).toBe(200);
    expect(await tagIds()).toEqual([c]);

    // A deleted tag leaves its contacts.
    expect((await t.call('DELETE', `/api/v1/tags/${c}`)).status).toBe(204);
    expect(await tagIds()).toEqual([]);
    expect((await t.assign('sync', contact, [a, b])).status).toBe(200);
    expect((await t.assign('sync', contact, [])).body.data.tags).toEqual([]);
    expect(await tagIds()).toEqual([]);
  });

  it('answers 422 at the pointer of a body id that names nothing, another workspace’s included, and changes nothing', async () => {
    const t = await tenant();
    const other = await tenant();
    const mine = (await t.createTag({ name: 'mine' })).body.data.id;
    const theirs = (await other.createTag({ name: 'theirs' })).body.data.id;
    const contact = (await t.upsert({ name: 'Someone' })).body.data.id;
    const theirContact = (await other.upsert({ name: 'Theirs' })).body.data.id;
    await t.assign('sync', contact, [mine]);

    for (const kind of ['sync', 'attach', 'detach'] as const) {
      const unknownTags = await t.assign(kind, contact, [mine, theirs, 99999999]);
      expect(unknownTags.status).toBe(422);
      expect(unknownTags.body.errors).toEqual([
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
      expectValidation(await t.assign(kind, 99999999, [mine]), ['/data/attributes/contact_id']);
      expectValidation(await t.assign(kind, theirContact, [mine]), ['/data/attributes/contact_id']);
    }
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'stolen' }],
      ['DELETE', undefined],
    ] as const) {
      expectNotFound(await t.call(method, `/api/v1/tags/${theirs}`, body), `Tag ${theirs} was not found.`);
    }
    expectNotFound(await t.call('GET', '/api/v1/tags/abc'), 'Tag abc was not found.');
    expectValidation(await t.call('POST', '/api/v1/tags/attach', { contact_id: 'x', tag_ids: ['y'] }), [
      '/data/attributes/contact_id',
      '/data/attributes/tag_ids/0',
    ]);
    // Ids are positive integers up to 2^53 − 1; each bad tag id is named by its index.
    const tooLarge = Number.MAX_SAFE_INTEGER + 1;
    expectValidation(
      await t.call('POST', '/api/v1/tags/sync', { contact_id: tooLarge, tag_ids: [mine, 1.5, 0, '7', -1] }),
      [
        '/data/attributes/contact_id',
        '/data/attributes/tag_ids/1',
        '/data/attributes/tag_ids/2',
        '/data/attributes/tag_ids/3',
        '/data/attributes/tag_ids/4',
      ],
    );
    expectValidation(await t.call('POST', '/api/v1/tags', { name: ' \t ' }), ['/data/attributes/name']);
    expectValidation(await t.call('PATCH', `/api/v1/tags/${mine}`, { name: '   ' }), [
      '/data/attributes/name',
    ]);

    expect((await t.contact(contact)).tags.map((tag) => tag.id)).toEqual([mine]);
    expect((await other.call<One<Tag>>('GET', `/api/v1/tags/${theirs}`)).body.data.name).toBe('theirs');
  });
});

describe('POST /api/v1/events', () => {
  it('answers 202 with the recorded event and creates its contact', async () => {
    const t = await tenant();
    const answer = await t.event({
      name: 'invoice.due',
      contact: {
        phone: '+44 7700 900456',
        name: 'Ada',
        data: { tier: 'pro' },
        marketing_consent: { sms: true },
      },
      data: { amount: 42, items: ['a'] },
      occurred_at: '2026-03-01T12:00:00+02:00',
    });
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({
      data: {
        id: expect.any(Number),
        name: 'invoice.due',
        contact_id: expect.any(Number),
        data: { amount: 42, items: ['a'] },
        occurred_at: '2026-03-01T10:00:00.000Z',
        received_at: expect.stringMatching(ISO_MS),
        idempotency_key: null,
      },
    });
    expect(await t.contact(answer.body.data.contact_id)).toMatchObject({
      id: answer.body.data.contact_id,
      name: 'Ada',
      phone: '+447700900456',
      email: null,
      external_id: null,
      data: { tier: 'pro' },
      marketing_consent: { ...NO_CONSENT, sms: true },
      tags: [],
      channels: NO_CHANNELS,
    });

    // Without occurred_at the event happened when it was received.
    const now = await t.event({ contact: { email: 'now@example.com' } });
    expect(now.status).toBe(202);
    expect(now.body.data.occurred_at).toBe(now.body.data.received_at);
    expect(now.body.data.data).toEqual({});
    expect(Math.abs(Date.parse(now.body.data.received_at) - Date.now())).toBeLessThan(60000);
    // A calendar date is accepted as ISO 8601.
    const dated = await t.event({ contact: { email: 'now@example.com' }, occurred_at: '2026-03-01' });
    expect([dated.status, dated.body.data.occurred_at]).toEqual([202, '2026-03-01T00:00:00.000Z']);
  });

  it('refuses every invalid field with 422 and a pointer, several at once, and records nothing', async () => {
    const t = await tenant();
    const contact = { email: 'valid@example.com' };
    const cases: Array<[string, Record<string, unknown>, string[]]> = [
      ['name missing', { name: undefined, contact }, ['/data/attributes/name']],
      ['name with upper case', { name: 'Order.Paid', contact }, ['/data/attributes/name']],
      ['name with a space', { name: 'order paid', contact }, ['/data/attributes/name']],
      ['name with a slash', { name: 'order/paid', contact }, ['/data/attributes/name']],
      ['name of 101 characters', { name: 'a'.repeat(101), contact }, ['/data/attributes/name']],
      ['name empty', { name: '', contact }, ['/data/attributes/name']],
      ['contact missing', {}, ['/data/attributes/contact']],
      ['contact not an object', { contact: 'ada@example.com' }, ['/data/attributes/contact']],
      ['contact without identity', { contact: { name: 'Ada' } }, ['/data/attributes/contact']],
      [
        'contact with blank identities',
        { contact: { phone: ' ', email: null } },
        ['/data/attributes/contact'],
      ],
      ['phone of 31 characters', { contact: { phone: '1'.repeat(31) } }, ['/data/attributes/contact/phone']],
      ['email of 256 characters', { contact: { email: emailOf(256) } }, ['/data/attributes/contact/email']],
      ['invalid email', { contact: { email: 'not-an-email' } }, ['/data/attributes/contact/email']],
      [
        'external_id of 256 characters',
        { contact: { external_id: 'x'.repeat(256) } },
        ['/data/attributes/contact/external_id'],
      ],
      [
        'name of 256 characters',
        { contact: { ...contact, name: 'n'.repeat(256) } },
        ['/data/attributes/contact/name'],
      ],
      ['unknown contact field', { contact: { ...contact, shoe: 1 } }, ['/data/attributes/contact/shoe']],
      [
        'unknown consent channel',
        { contact: { ...contact, marketing_consent: { pigeon: true } } },
        ['/data/attributes/contact/marketing_consent'],
      ],
      ['data not an object', { contact, data: [1] }, ['/data/attributes/data']],
      ['occurred_at not a date', { contact, occurred_at: 'yesterday' }, ['/data/attributes/occurred_at']],
      [
        'occurred_at impossible',
        { contact, occurred_at: '2026-13-01T00:00:00Z' },
        ['/data/attributes/occurred_at'],
      ],
      [
        'occurred_at without zone',
        { contact, occurred_at: '2026-03-01T12:00:00' },
        ['/data/attributes/occurred_at'],
      ],
      ['occurred_at a number', { contact, occurred_at: 1767225600000 }, ['/data/attributes/occurred_at']],
      [
        'occurred_at more than an hour after receipt',
        { contact, occurred_at: new Date(Date.now() + 2 * 60 * 60 * 1000).toISOString() },
        ['/data/attributes/occurred_at'],
      ],
      [
        'occurred_at in the year 9999',
        { contact, occurred_at: '9999-12-31' },
        ['/data/attributes/occurred_at'],
      ],
      [
        'data over 64 KiB of JSON',
        { contact, data: { blob: 'x'.repeat(64 * 1024) } },
        ['/data/attributes/data'],
      ],
      [
        "the contact's data over 64 KiB of JSON",
        { contact: { ...contact, data: { blob: 'x'.repeat(64 * 1024) } } },
        ['/data/attributes/contact/data'],
      ],
      ['unknown field', { contact, extra: true }, ['/data/attributes/extra']],
      [
        'several errors',
        { name: 'Bad Name', contact: { email: 'x', phone: '2'.repeat(31) }, occurred_at: 'soon' },
        [
          '/data/attributes/name',
          '/data/attributes/contact/email',
          '/data/attributes/contact/phone',
          '/data/attributes/occurred_at',
        ],
      ],
    ];
    for (const [name, body, pointers] of cases) {
      const answer = await t.call('POST', '/api/v1/events', { name: 'order.paid', ...body });
      try {
        expectValidation(answer, pointers);
      } catch (error) {
        throw new Error(`${name}: ${answer.status} ${JSON.stringify(answer.body)}\n${String(error)}`);
      }
    }
    const tooLongKey = await t.event({ contact }, 'k'.repeat(256));
    expectValidation(tooLongKey, ['/data/attributes/idempotency_key']);
    expect((await t.events()).meta.total).toBe(0);
    expect((await t.contacts()).meta.total).toBe(0);

    // The limits themselves are accepted.
    const atLimits = await t.event({
      name: `a.b_c:d-${'e'.repeat(92)}`,
      contact: {
        phone: '1'.repeat(30),
        email: emailOf(254),
        external_id: 'x'.repeat(255),
        name: 'n'.repeat(255),
      },
    });
    expect(atLimits.status).toBe(202);
    expect(atLimits.body.data.name).toHaveLength(100);
    expect((await t.events()).meta.total).toBe(1);
  });

  it('matches the contact by phone, then external_id, then email, and creates one when nothing matches', async () => {
    const t = await tenant();
    const contactOf = async (contact: object) => {
      const answer = await t.event({ contact });
      expect(answer.status).toBe(202);
      return answer.body.data.contact_id;
    };
    const byPhone = await contactOf({ phone: '+14155550701' });
    const byExternalId = await contactOf({ external_id: 'crm-7' });
    const byEmail = await contactOf({ email: 'seven@example.com' });
    expect(new Set([byPhone, byExternalId, byEmail]).size).toBe(3);
    expect((await t.contacts()).meta.total).toBe(3);

    // Each check names identities of an earlier rank that match nobody (events also write what they send).
    expect(await contactOf({ phone: '+14155550799', email: 'SEVEN@example.com' })).toBe(byEmail);
    expect(await contactOf({ external_id: 'crm-7', email: 'seven@example.com' })).toBe(byExternalId);
    expect(
      await contactOf({ phone: '001 415 555 0701', external_id: 'crm-7', email: 'seven@example.com' }),
    ).toBe(byPhone);
    expect((await t.contacts()).meta.total).toBe(3);
    const created = await contactOf({ external_id: 'crm-new' });
    expect([byPhone, byExternalId, byEmail]).not.toContain(created);
    expect((await t.contacts()).meta.total).toBe(4);
    // The matched contact took the identities each event sent, and one contact holds each (extensions
    // §2): the email moved from byEmail to byExternalId, then both it and crm-7 moved to byPhone.
    expect(await t.contact(byPhone)).toMatchObject({
      phone: '+14155550701',
      external_id: 'crm-7',
      email: 'seven@example.com',
    });
    expect(await t.contact(byExternalId)).toMatchObject({ external_id: null, email: null });
    expect(await t.contact(byEmail)).toMatchObject({ email: null, phone: '+14155550799' });

    // A contact stored through upsert is matched as well, and another workspace's is not.
    const upserted = (await t.upsert({ name: 'Up', phone: '+14155550777' })).body.data.id;
    expect(await contactOf({ phone: '+1 415 555 0777' })).toBe(upserted);
    const other = await tenant();
    const elsewhere = await other.event({ contact: { phone: '+14155550701' } });
    expect(elsewhere.body.data.contact_id).not.toBe(byPhone);
  });

  it('keeps a phone it cannot read as given, and matches it as given', async () => {
    const t = await tenant();
    const odd = await t.event({ contact: { phone: 'ext. 12' } });
    expect(odd.status).toBe(202);
    expect((await t.contact(odd.body.data.contact_id)).phone).toBe('ext. 12');
    const again = await t.event({ contact: { phone: ' ext. 12' } });
    expect(again.body.data.contact_id).toBe(odd.body.data.contact_id);
    expect((await t.contacts()).meta.total).toBe(1);
  });

  it('lets newer values win by occurred_at: an older event arriving late does not overwrite them', async () => {
    const t = await tenant();
    const contact = { external_id: 'late-1' };
    const newer = await t.event({
      contact: { ...contact, name: 'Newer', data: { plan: 'gold' }, marketing_consent: { sms: true } },
      occurred_at: '2026-01-02T00:00:00Z',
    });
    const id = newer.body.data.contact_id;
    const older = await t.event({
      contact: {
        ...contact,
        name: 'Older',
        email: 'late@example.com',
        data: { plan: 'silver', city: 'Oslo' },
        marketing_consent: { sms: false, email: true },
      },
      occurred_at: '2026-01-01T00:00:00Z',
    });
    expect(older.status).toBe(202);
    expect(older.body.data.contact_id).toBe(id);
    expect(await t.contact(id)).toMatchObject({
      name: 'Newer',
      email: 'late@example.com',
      data: { plan: 'gold', city: 'Oslo' },
      marketing_consent: { ...NO_CONSENT, sms: true, email: true },
    });

    const newest = await t.event({
      contact: { ...contact, name: 'Newest' },
      occurred_at: '2026-01-03T00:00:00Z',
    });
    expect(newest.status).toBe(202);
    expect((await t.contact(id)).name).toBe('Newest');
    // The events are listed in the order they were received, whatever they say about when they happened.
    expect((await t.events()).data.map((event) => event.occurred_at)).toEqual([
      '2026-01-03T00:00:00.000Z',
      '2026-01-01T00:00:00.000Z',
      '2026-01-02T00:00:00.000Z',
    ]);
  });
});

describe('the Idempotency-Key', () => {
  it('answers 202 first, then 200 with the original event, and records nothing twice', async () => {
    const t = await tenant();
    const first = await t.event({ contact: { email: 'idem@example.com' }, data: { n: 1 } }, 'invoice-1-due');
    expect(first.status).toBe(202);
    expect(first.body.data).toMatchObject({ idempotency_key: 'invoice-1-due', data: { n: 1 } });
    const again = await t.event(
      { name: 'other.name', contact: { email: 'idem@example.com', name: 'X' }, data: { n: 2 } },
      'invoice-1-due',
    );
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);

    const events = await t.events();
    expect(events.meta.total).toBe(1);
    expect(events.data).toEqual([first.body.data]);
    expect((await t.contact(first.body.data.contact_id)).name).toBeNull();
    expect((await t.contacts()).meta.total).toBe(1);

    // Keys belong to a workspace.
    const other = await tenant();
    const elsewhere = await other.event({ contact: { email: 'idem@example.com' } }, 'invoice-1-due');
    expect(elsewhere.status).toBe(202);
    expect(elsewhere.body.data.id).not.toBe(first.body.data.id);
  });

  it('answers exactly one of 10 concurrent identical requests with 202 and the others with 200, recording one event', async () => {
    const t = await tenant();
    const body = { name: 'invoice.due', contact: { phone: '+14155550801', name: 'Racer' }, data: { n: 1 } };
    const answers = await Promise.all(Array.from({ length: 10 }, () => t.event(body, 'race-1')));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 202]);
    const original = answers.find((answer) => answer.status === 202)!.body;
    for (const answer of answers) expect(answer.body).toEqual(original);

    const events = await t.events();
    expect(events.meta.total).toBe(1);
    expect(events.data[0]).toEqual(original.data);
    const contacts = await t.contacts();
    expect(contacts.meta.total).toBe(1);
    expect(contacts.data[0]).toMatchObject({
      id: original.data.contact_id,
      phone: '+14155550801',
      name: 'Racer',
    });
  });
});

describe('GET /api/v1/events', () => {
  it('lists newest first with page meta, filtered by filter[name] or name', async () => {
    const t = await tenant();
    const ids: number[] = [];
    for (const name of ['a.one', 'b.two', 'a.one']) {
      const answer = await t.event({ name, contact: { email: 'list@example.com' } });
      expect(answer.status).toBe(202);
      ids.push(answer.body.data.id);
    }
    const all = await t.events();
    expect(all.data.map((event) => event.id)).toEqual([...ids].reverse());
    expect(all.meta).toEqual({ current_page: 1, per_page: 25, total: 3, last_page: 1 });
    expect(all.data[0]).toEqual({
      id: ids[2],
      name: 'a.one',
      contact_id: expect.any(Number),
      data: {},
      occurred_at: expect.stringMatching(ISO_MS),
      received_at: expect.stringMatching(ISO_MS),
      idempotency_key: null,
    });
    expect((await t.events('?filter[name]=a.one')).data.map((event) => event.id)).toEqual([ids[2], ids[0]]);
    expect((await t.events('?name=b.two')).data.map((event) => event.id)).toEqual([ids[1]]);
    expect((await t.events('?name=c.three')).meta.total).toBe(0);
    const page = await t.events('?per_page=1&page=3');
    expect(page.meta).toEqual({ current_page: 3, per_page: 1, total: 3, last_page: 3 });
    expect(page.data.map((event) => event.id)).toEqual([ids[0]]);
    expectValidation(await t.call('GET', '/api/v1/events?per_page=101'), ['/data/attributes/per_page']);
    expect((await (await tenant()).events()).meta.total).toBe(0);
  });
});

describe('the stored-contacts limit of the plan', () => {
  it('refuses with 422 at /data/attributes/contact a write that would store one contact too many, changing nothing', async () => {
    const t = await tenant(LIMITED_PLAN);
    for (let i = 1; i <= LIMIT; i += 1) {
      expect((await t.upsert({ name: `C${i}`, phone: `+1415555090${i}` })).status).toBe(201);
    }
    const refusal = [
      {
        status: '422',
        title: 'Validation Error',
        detail: expect.stringContaining(String(LIMIT)),
        source: { pointer: '/data/attributes/contact' },
      },
    ];

    const upsert = await t.upsert({ name: 'One too many', phone: '+14155550909' });
    expect(upsert.status).toBe(422);
    expect(upsert.body).toEqual({ errors: refusal });

    const event = await t.event({ contact: { email: 'new@example.com' } }, 'over-limit');
    expect(event.status).toBe(422);
    expect(event.body).toEqual({ errors: refusal });
    expect((await t.events()).meta.total).toBe(0);

    const batch = await t.call<One<{ results: BatchResult[]; summary: object }>>(
      'POST',
      '/api/v1/contacts/batch',
      {
        contacts: [
          { name: 'New', phone: '+14155550910' },
          { name: 'C1 updated', phone: '+14155550901' },
        ],
      },
    );
    expect(batch.status).toBe(200);
    expect(batch.body.data.results.map((result) => result.status)).toEqual([422, 200]);
    expect(batch.body.data.results[0]!.errors).toEqual(refusal);
    expect(batch.body.data.summary).toEqual({ created: 0, updated: 1, failed: 1 });

    const list = await t.contacts();
    expect(list.meta.total).toBe(LIMIT);
    expect(list.data.map((contact) => contact.name)).toEqual(['C1 updated', 'C2', 'C3']);

    // Writes to stored contacts create nothing, so they still work at the limit.
    const existing = await t.upsert({ name: 'C2 again', phone: '+1 415 555 0902' });
    expect(existing.status).toBe(200);
    expect((await t.event({ contact: { phone: '+14155550903', name: 'C3 again' } })).status).toBe(202);
    expect((await t.update(existing.body.data.id, { name: 'C2 put' })).status).toBe(200);
    // Only the event about a stored contact was recorded.
    expect((await t.events()).meta.total).toBe(1);
    expect((await t.contacts()).data.map((contact) => contact.name)).toEqual([
      'C1 updated',
      'C2 put',
      'C3 again',
    ]);
  });
});
