import { MESSAGING_FACT_TYPES, MESSAGING_REQUEST_TYPES, OUTCOME_TYPES } from '@cms/contracts';

import type { TemplateResource } from '../src/templates/template.resource';
import { MessagingHarness, type Outcome } from './support/messaging.harness';

let harness: MessagingHarness;

beforeAll(async () => {
  harness = await MessagingHarness.start();
});

afterAll(async () => {
  await harness?.stop();
});

async function createTemplate(
  ws: number,
  fields: Record<string, unknown>,
): Promise<{ id: number; outcome: Outcome }> {
  const id = harness.id();
  const outcome = await harness.request(ws, MESSAGING_REQUEST_TYPES.templateCreate, {
    template_id: id,
    name: `Template ${id}`,
    channel: 'sms',
    body: 'Hello {{ contact.name }}',
    ...fields,
  });
  return { id, outcome };
}

function updateTemplate(ws: number, id: number, fields: Record<string, unknown>): Promise<Outcome> {
  return harness.request(ws, MESSAGING_REQUEST_TYPES.templateUpdate, { template_id: id, ...fields });
}

function resourceOf(outcome: Outcome): TemplateResource {
  expect(outcome.type).toBe(OUTCOME_TYPES.accepted);
  return (outcome.data as unknown as { resource: TemplateResource }).resource;
}

function refusal(outcome: Outcome): { status: number; errors: Array<{ pointer: string; detail: string }> } {
  expect(outcome.type).toBe(OUTCOME_TYPES.rejected);
  const data = outcome.data as {
    status: number;
    errors: Array<{ detail: string; source?: { pointer: string } }>;
  };
  return {
    status: data.status,
    errors: data.errors.map((error) => ({ pointer: error.source?.pointer ?? '', detail: error.detail })),
  };
}

function pointers(outcome: Outcome): string[] {
  return refusal(outcome).errors.map((error) => error.pointer);
}

describe('template.create.requested', () => {
  it('answers 201 with the template, language en and track_links true by default, and publishes it', async () => {
    const ws = harness.workspace();
    const { id, outcome } = await createTemplate(ws, {
      name: 'Welcome',
      body: 'Hi {{ contact.name | default: "there" }}',
    });
    expect(outcome.data).toMatchObject({ status: 201 });
    expect(resourceOf(outcome)).toEqual({
      id,
      name: 'Welcome',
      channel: 'sms',
      language: 'en',
      body: 'Hi {{ contact.name | default: "there" }}',
      subject: null,
      html: null,
      provider_template: null,
      track_links: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const [fact] = await harness.factsOf(outcome);
    expect(fact).toMatchObject({
      type: MESSAGING_FACT_TYPES.templateCreated,
      subject: String(id),
      data: { template_id: id, name: 'Welcome', channel: 'sms' },
    });
  });

  it('takes subject and html on email, and a provider template without a body on whatsapp', async () => {
    const ws = harness.workspace();
    const email = await createTemplate(ws, {
      channel: 'email',
      subject: 'Order {{ vars.order }}',
      html: '<p>{{ contact.name }}</p>',
      language: 'de-DE',
      track_links: false,
    });
    expect(resourceOf(email.outcome)).toMatchObject({
      subject: 'Order {{ vars.order }}',
      language: 'de-DE',
      track_links: false,
    });
    const whatsapp = await createTemplate(ws, {
      channel: 'whatsapp',
      body: undefined,
      provider_template: { name: 'order_update', language: 'en_US', parameters: ['{{ contact.name }}'] },
    });
    expect(resourceOf(whatsapp.outcome)).toMatchObject({
      body: null,
      provider_template: { name: 'order_update', language: 'en_US', parameters: ['{{ contact.name }}'] },
    });
  });

  it('refuses what the channel type does not take, and a missing body, at each field', async () => {
    const ws = harness.workspace();
    const sms = await createTemplate(ws, {
      body: undefined,
      subject: 'Hi',
      html: '<b>x</b>',
      provider_template: { name: 'x', language: 'en' },
    });
    expect(pointers(sms.outcome)).toEqual([
      '/data/attributes/provider_template',
      '/data/attributes/subject',
      '/data/attributes/html',
    ]);
    const noBody = await createTemplate(ws, { channel: 'whatsapp', body: undefined });
    expect(pointers(noBody.outcome)).toEqual(['/data/attributes/body']);
    expect(await harness.kit.db.query('SELECT id FROM templates WHERE workspace_id = $1', [ws])).toEqual([]);
  });

  it('refuses Liquid that does not parse with the line and column of the fault', async () => {
    const ws = harness.workspace();
    const { outcome } = await createTemplate(ws, {
      channel: 'email',
      body: 'Hello\n  {% if contact.name %}',
      subject: '{{ vars.x | nosuchfilter }}',
    });
    expect(refusal(outcome)).toEqual({
      status: 422,
      errors: [
        {
          pointer: '/data/attributes/body',
          detail: 'line 2, column 3: tag {% if contact.name %} not closed',
        },
        { pointer: '/data/attributes/subject', detail: 'line 1, column 1: undefined filter: nosuchfilter' },
      ],
    });
  });

  it('refuses a name the workspace has on the channel type, but not on another type or workspace', async () => {
    const ws = harness.workspace();
    await createTemplate(ws, { name: 'Same' });
    const { outcome: taken } = await createTemplate(ws, { name: 'Same' });
    expect(refusal(taken)).toMatchObject({ status: 422, errors: [{ pointer: '/data/attributes/name' }] });
    expect(resourceOf((await createTemplate(ws, { name: 'Same', channel: 'telegram' })).outcome).name).toBe(
      'Same',
    );
    expect(resourceOf((await createTemplate(harness.workspace(), { name: 'Same' })).outcome).name).toBe(
      'Same',
    );
  });

  it('answers 409 for an id in use', async () => {
    // The gateway mints ids, so only a replayed id is ever in use; one workspace keeps the order a rebuild sees.
    const ws = harness.workspace();
    const { id } = await createTemplate(ws, {});
    const again = await harness.request(ws, MESSAGING_REQUEST_TYPES.templateCreate, {
      template_id: id,
      name: 'Other',
      channel: 'sms',
      body: 'x',
    });
    expect(refusal(again).status).toBe(409);
  });
});

describe('template.update.requested and template.delete.requested', () => {
  it('changes only the fields sent, clears with null, and keeps every rule', async () => {
    const ws = harness.workspace();
    const { id } = await createTemplate(ws, { channel: 'email', subject: 'S', html: '<p>h</p>' });
    await createTemplate(ws, { channel: 'email', name: 'Taken' });
    const updated = await updateTemplate(ws, id, {
      html: null,
      body: 'New {{ vars.x | default: 1 }}',
      track_links: false,
    });
    expect(resourceOf(updated)).toMatchObject({
      subject: 'S',
      html: null,
      body: 'New {{ vars.x | default: 1 }}',
      track_links: false,
    });
    const [fact] = await harness.factsOf(updated);
    expect(fact).toMatchObject({ type: MESSAGING_FACT_TYPES.templateUpdated, data: { template_id: id } });

    expect(pointers(await updateTemplate(ws, id, { name: 'Taken' }))).toEqual(['/data/attributes/name']);
    // On sms the subject it has is no longer allowed.
    expect(pointers(await updateTemplate(ws, id, { channel: 'sms' }))).toEqual(['/data/attributes/subject']);
    expect(pointers(await updateTemplate(ws, id, { body: null }))).toEqual(['/data/attributes/body']);
    expect(pointers(await updateTemplate(ws, id, { body: '{{ x' }))).toEqual(['/data/attributes/body']);
    expect(resourceOf(await updateTemplate(ws, id, { channel: 'sms', subject: null }))).toMatchObject({
      channel: 'sms',
      subject: null,
    });
  });

  it('deletes a template (204, fact), and answers 404 for one of another workspace', async () => {
    const ws = harness.workspace();
    const { id } = await createTemplate(ws, {});
    const other = harness.workspace();
    expect(refusal(await updateTemplate(other, id, { name: 'x' })).status).toBe(404);
    expect(
      refusal(await harness.request(other, MESSAGING_REQUEST_TYPES.templateDelete, { template_id: id }))
        .status,
    ).toBe(404);
    const removed = await harness.request(ws, MESSAGING_REQUEST_TYPES.templateDelete, { template_id: id });
    expect(removed.data).toMatchObject({ status: 204 });
    const [fact] = await harness.factsOf(removed);
    expect(fact).toMatchObject({ type: MESSAGING_FACT_TYPES.templateDeleted, data: { id } });
    expect((await harness.get(`templates/${id}`, ws)).status).toBe(404);
  });
});

describe('the internal template reads', () => {
  it('lists oldest first, filtered by name and channel, paged, and reads one', async () => {
    const ws = harness.workspace();
    const a = (await createTemplate(ws, { name: 'A' })).id;
    const b = (await createTemplate(ws, { name: 'B', channel: 'telegram' })).id;
    const c = (await createTemplate(ws, { name: 'A', channel: 'telegram' })).id;
    type List = { data: TemplateResource[]; meta: Record<string, number> };
    const all = await harness.get<List>('templates', ws);
    expect(all.body.data.map((template) => template.id)).toEqual([a, b, c]);
    expect(all.body.meta).toEqual({ current_page: 1, per_page: 25, total: 3, last_page: 1 });
    expect((await harness.get<List>('templates?filter[name]=A', ws)).body.data.map((t) => t.id)).toEqual([
      a,
      c,
    ]);
    expect(
      (await harness.get<List>('templates?filter[channel]=telegram&per_page=1&page=2', ws)).body,
    ).toMatchObject({
      data: [{ id: c }],
      meta: { current_page: 2, per_page: 1, total: 2, last_page: 2 },
    });
    expect((await harness.get<{ data: TemplateResource }>(`templates/${b}`, ws)).body.data).toMatchObject({
      id: b,
      name: 'B',
    });
    expect((await harness.get(`templates/${b}`, harness.workspace())).status).toBe(404);
    expect((await harness.get('templates/0', ws)).status).toBe(404);
    expect((await harness.get('templates?filter[channel]=fax', ws)).status).toBe(422);
  });
});

describe('POST internal/v1/templates/:id/render', () => {
  it('renders subject, body and html for a contact of the view, the variables and the event', async () => {
    const ws = harness.workspace();
    const contactId = harness.id();
    await harness.contacts(ws, { id: contactId, name: 'Ada', data: { plan: 'gold' } });
    const { id } = await createTemplate(ws, {
      channel: 'email',
      subject: 'Order {{ vars.order }}',
      body: '{{ contact.name | upcase }} ({{ contact.data.plan }}) paid {{ event.data.total }}',
      html: '<p>{{ vars.coupon | default: "none" }}</p>',
    });
    const rendered = await harness.call('POST', `templates/${id}/render`, ws, {
      contact_id: contactId,
      variables: { order: 'A-1' },
      event: { data: { total: 42 } },
    });
    expect(rendered).toEqual({
      status: 200,
      body: { data: { subject: 'Order A-1', body: 'ADA (gold) paid 42', html: '<p>none</p>' } },
    });
  });

  it('answers 422 naming a missing variable, and at contact_id for a contact it does not know', async () => {
    const ws = harness.workspace();
    const { id } = await createTemplate(ws, { body: 'Code {{ vars.code }}' });
    const missing = await harness.call<{ errors: Array<{ detail: string }> }>(
      'POST',
      `templates/${id}/render`,
      ws,
      {},
    );
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0]!.detail).toMatch(/vars\.code/);
    const unknown = await harness.call('POST', `templates/${id}/render`, ws, { contact_id: harness.id() });
    expect(unknown).toMatchObject({
      status: 422,
      body: { errors: [{ source: { pointer: '/data/attributes/contact_id' } }] },
    });
    const invalid = await harness.call<{ errors: Array<{ source: { pointer: string } }> }>(
      'POST',
      `templates/${id}/render`,
      ws,
      { contact_id: 'x' },
    );
    expect(invalid.status).toBe(422);
    expect(new Set(invalid.body.errors.map((error) => error.source.pointer))).toEqual(
      new Set(['/data/attributes/contact_id']),
    );
    expect((await harness.call('POST', `templates/${id}/render`, harness.workspace(), {})).status).toBe(404);
  });
});

describe('rebuilding from the log', () => {
  it('makes the same template rows in a new schema', async () => {
    const live = await harness.kit.projectionRows();
    expect(live.templates!.length).toBeGreaterThan(10);
    expect(await harness.kit.projectionRows(await harness.kit.rebuild())).toEqual(live);
  });
});
