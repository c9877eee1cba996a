import { eventually } from '@cms/testing';
import { Client } from 'pg';

import { replayInPlace, tablesOf } from '../src/ops-replay';
import { System } from '../src/system';

/**
 * Audiences end to end (extensions §11): contacts, tags, events and suppressions written through the
 * public API reach the segments service's view through the log, and the preview and audiences answer
 * from it; the edge refuses a filter the language cannot read before anything is recorded.
 */
let system: System;
let key: string;

beforeAll(async () => {
  system = await System.start(['gateway', 'contacts', 'messaging', 'segments', 'broadcasts', 'automations']);
  ({ key } = await system.tenant('business'));
}, 120_000);

afterAll(async () => {
  await system?.stop();
});

async function post<T = unknown>(path: string, body: unknown): Promise<{ status: number; body: T }> {
  return system.call<T>('POST', path, { key, body });
}

async function contact(body: Record<string, unknown>): Promise<number> {
  const answer = await post<{ data: { id: number } }>('/api/v1/contacts/upsert', body);
  if (answer.status !== 200 && answer.status !== 201) throw new Error(`upsert answered ${answer.status}`);
  return answer.body.data.id;
}

describe('audiences through the public API', () => {
  it('previews and sizes audiences from what the API wrote, fresh, and refuses bad filters at the edge', async () => {
    const ada = await contact({
      name: 'Ada',
      phone: '+15557770001',
      email: 'ada@example.com',
      data: { plan: 'gold', visits: 12 },
      marketing_consent: { sms: true, email: true },
    });
    const bob = await contact({
      name: 'Bob',
      phone: '+15557770002',
      data: { plan: 'free', visits: 1 },
      marketing_consent: { sms: true },
    });
    const tag = await post<{ data: { id: number } }>('/api/v1/tags', { name: 'vip' });
    expect(tag.status).toBe(201);
    expect((await post('/api/v1/tags/attach', { contact_id: ada, tag_ids: [tag.body.data.id] })).status).toBe(
      200,
    );
    expect(
      (await post('/api/v1/events', { name: 'purchase', contact: { phone: '+15557770002' } })).status,
    ).toBe(202);

    const everyone = await eventually('both contacts in the preview', async () => {
      const answer = await post<{
        data: { count: number; sample: Array<{ id: number }>; reachable: Record<string, number> };
      }>('/api/v1/audience/preview', {
        filter_criteria: [{ field: 'event.purchase', operator: 'not_performed', value: {} }],
        include_contact_ids: [bob],
      });
      return answer.body.data?.count === 2 ? answer : undefined;
    });
    expect(everyone.status).toBe(200);
    expect(everyone.body.data.sample.map((c) => c.id)).toEqual([ada, bob]);
    expect(everyone.body.data.reachable).toMatchObject({ sms: 2, email: 1, whatsapp: 0 });

    // A suppression made through the messaging API leaves the reachable count.
    expect((await post('/api/v1/suppressions', { channel: 'sms', address: '+15557770002' })).status).toBe(
      201,
    );
    await eventually('the suppression in the preview', async () => {
      const answer = await post<{ data: { reachable: Record<string, number> } }>(
        '/api/v1/audience/preview',
        {},
      );
      return answer.body.data?.reachable['sms'] === 1 || undefined;
    });

    const vip = { filter_criteria: [{ field: 'tags', operator: 'has', value: tag.body.data.id }] };
    const created = await post<{ data: { id: number; size: number; source: string } }>('/api/v1/audiences', {
      name: 'VIP',
      ...vip,
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'VIP', source: 'filters', size: 1 });
    const id = created.body.data.id;

    // A contact answered by the API is counted by the next reads (extensions §11: within a second).
    const carl = await contact({ name: 'Carl', email: 'carl@example.com' });
    expect(
      (await post('/api/v1/tags/attach', { contact_id: carl, tag_ids: [tag.body.data.id] })).status,
    ).toBe(200);
    await eventually('the new member counted', async () => {
      const answer = await system.call<{ data: { size: number } }>('GET', `/api/v1/audiences/${id}`, { key });
      return answer.body.data?.size === 2 || undefined;
    });
    const updated = await system.call<{ data: { size: number } }>('PATCH', `/api/v1/audiences/${id}`, {
      key,
      body: { exclude_contact_ids: [carl] },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.size).toBe(1);

    const bad = await post<{ errors: Array<{ source: { pointer: string } }> }>('/api/v1/audiences', {
      name: 'Bad',
      filter_criteria: [{ any: [{ field: 'data.visits', operator: 'gt', value: 'many' }] }],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]!.source.pointer).toBe('/data/attributes/filter_criteria/0/any/0/value');
    const unknownContact = await post<{ errors: Array<{ source: { pointer: string } }> }>(
      '/api/v1/audiences',
      {
        name: 'Ghost',
        include_contact_ids: [987_654_321],
      },
    );
    expect(unknownContact.status).toBe(422);
    expect(unknownContact.body.errors[0]!.source.pointer).toBe('/data/attributes/include_contact_ids/0');
    const list = await system.call<{ data: Array<{ name: string }>; meta: { total: number } }>(
      'GET',
      '/api/v1/audiences',
      { key },
    );
    expect(list.body.data.map((audience) => audience.name)).toEqual(['VIP']);

    // An audience condition names one audience by its id, or several in an array (§11), with one cycle rule.
    const inVip = { filter_criteria: [{ field: 'audience', operator: 'in', value: id }] };
    const previewed = await post<{ data: { count: number } }>('/api/v1/audience/preview', inVip);
    expect(previewed.status).toBe(200);
    expect(previewed.body.data.count).toBe(1);
    const fans = await post<{ data: { id: number; size: number; filter_criteria: unknown } }>(
      '/api/v1/audiences',
      { name: 'VIP fans', ...inVip },
    );
    expect(fans.status).toBe(201);
    expect(fans.body.data.size).toBe(1);
    const loop = await system.call<{ errors: Array<{ source: { pointer: string } }> }>(
      'PATCH',
      `/api/v1/audiences/${id}`,
      {
        key,
        body: { filter_criteria: [{ field: 'audience', operator: 'not_in', value: fans.body.data.id }] },
      },
    );
    expect(loop.status).toBe(422);
    expect(loop.body.errors[0]!.source.pointer).toMatch(/^\/data\/attributes\/filter_criteria/);
    expect((await system.call('DELETE', `/api/v1/audiences/${fans.body.data.id}`, { key })).status).toBe(204);

    expect((await post('/api/v1/audiences', { name: 'Kept', include_contact_ids: [ada] })).status).toBe(201);
    expect((await system.call('DELETE', `/api/v1/audiences/${id}`, { key })).status).toBe(204);
    expect((await system.call('GET', `/api/v1/audiences/${id}`, { key })).status).toBe(404);
    expect((await system.call('GET', '/api/v1/audiences/0x10', { key })).status).toBe(404);
  });
});

describe('imports through the public API', () => {
  it('uploads a CSV, processes it into an import audience through the contacts service, and reports the job', async () => {
    const existing = await contact({ name: 'Old', phone: '+15558880001' });
    const csv = [
      '\uFEFFTelefone;E-mail;Nome',
      '+1 555 888 0001;;Old again',
      ';new@example.com;New',
      'not a phone;;Broken',
      ';;Nobody',
      '+15558880002;two@example.com;Two',
    ].join('\r\n');
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'people.csv');
    const uploaded = await system.call<{ data: Record<string, unknown> }>(
      'POST',
      '/api/v1/audience-import/preview',
      { key, body: form },
    );
    expect(uploaded.status).toBe(201);
    const upload = uploaded.body.data;
    expect(upload).toMatchObject({ columns: ['Telefone', 'E-mail', 'Nome'], row_count: 5, delimiter: ';' });
    expect((upload['sample_rows'] as unknown[])[0]).toEqual({
      Telefone: '+1 555 888 0001',
      'E-mail': '',
      Nome: 'Old again',
    });

    const body = {
      path: upload['path'],
      mapping: { phone: 'Telefone', email: 'E-mail', name: 'Nome' },
      audience_name: 'From the fair',
      create_new_entities: true,
    };
    const processed = await post<{ data: { job_id: number; audience_id: number; status: string } }>(
      '/api/v1/audience-import/process',
      body,
    );
    expect(processed.status).toBe(202);
    expect(processed.body.data.status).toBe('queued');
    const job = await eventually(
      'the job completed',
      async () => {
        const answer = await system.call<{ data: Record<string, unknown> }>(
          'GET',
          `/api/v1/audience-import/jobs/${processed.body.data.job_id}`,
          { key },
        );
        return answer.body.data?.['status'] === 'completed' ? answer.body.data : undefined;
      },
      30_000,
    );
    expect(job).toMatchObject({
      audience_id: processed.body.data.audience_id,
      rows_total: 5,
      rows_processed: 5,
      contacts_created: 2,
      contacts_matched: 1,
      rows_skipped: 2,
      errors: [
        { row: 3, reason: 'invalid_phone' },
        { row: 4, reason: 'no_identifier' },
      ],
    });
    const audience = await eventually('the audience counts its members', async () => {
      const answer = await system.call<{ data: { size: number; source: string } }>(
        'GET',
        `/api/v1/audiences/${processed.body.data.audience_id}`,
        { key },
      );
      return answer.body.data?.size === 3 ? answer.body.data : undefined;
    });
    expect(audience.source).toBe('import');
    // The matched contact was left as it was; the new ones are contacts like any other.
    const old = await system.call<{ data: { name: string } }>('GET', `/api/v1/contacts/${existing}`, { key });
    expect(old.body.data.name).toBe('Old');
    // The same path again: nothing is created twice (a second audience, every row matched).
    const again = await post<{ data: { job_id: number } }>('/api/v1/audience-import/process', {
      ...body,
      audience_name: 'Again',
    });
    expect(again.status).toBe(202);
    const second = await eventually('the second job completed', async () => {
      const answer = await system.call<{ data: Record<string, unknown> }>(
        'GET',
        `/api/v1/audience-import/jobs/${again.body.data.job_id}`,
        { key },
      );
      return answer.body.data?.['status'] === 'completed' ? answer.body.data : undefined;
    });
    expect(second).toMatchObject({ contacts_created: 0, contacts_matched: 3, rows_skipped: 2 });
    const wrongColumn = await post<{ errors: Array<{ source: { pointer: string } }> }>(
      '/api/v1/audience-import/process',
      {
        ...body,
        audience_name: 'Wrong',
        mapping: { phone: 'Phone', email: null, name: null },
      },
    );
    expect(wrongColumn.status).toBe(422);
    expect(wrongColumn.body.errors[0]!.source.pointer).toBe('/data/attributes/mapping/phone');
  });
});

describe('ops replay segments --in-place', () => {
  it('rebuilds the view and the audiences row for row from the log', async () => {
    const db = new Client({ connectionString: system.stack.databaseUrl });
    await db.connect();
    try {
      const schema = system.schema('segments');
      await system.halt('segments');
      const before = await tablesOf(db, schema);
      expect(before['contacts']!.length).toBeGreaterThan(0);
      expect(before['audiences']!.length).toBeGreaterThan(0);
      const report = await replayInPlace(system, 'segments', schema);
      expect(report).toMatchObject({ service: 'segments', mode: 'in-place', schema });
      expect(await tablesOf(db, schema)).toEqual(before);
      await system.resume('segments');
      const preview = await post<{ data: { count: number } }>('/api/v1/audience/preview', {});
      expect(preview.body.data.count).toBeGreaterThan(0);
    } finally {
      await db.end();
    }
  });
});
