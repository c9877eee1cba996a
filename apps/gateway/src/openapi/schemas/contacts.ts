import { CONSENT_CHANNELS, FIELD_MAPPING_TARGETS, LINK_CHANNELS, PERMISSIONS, PLANS } from '@cms/contracts';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

import { FREE_FORM, ID, NULLABLE_TEXT, TIME, fixed, ref } from './shapes';

/** The contact's fields every answer shows, in the order `contactResource` writes them. */
const CONTACT_IDENTITY: Record<string, SchemaObject> = {
  id: ID,
  name: {
    ...NULLABLE_TEXT,
    description: 'Null for a contact created by an event or webhook without a name.',
  },
  phone: { ...NULLABLE_TEXT, description: 'International format (E.164) when it could be read as a number.' },
  email: NULLABLE_TEXT,
  external_id: { ...NULLABLE_TEXT, description: "The caller's own identifier." },
  source: NULLABLE_TEXT,
};

const CONTACT_TIMES: Record<string, SchemaObject> = { created_at: TIME, updated_at: TIME };

const CONTACT: SchemaObject = fixed({
  ...CONTACT_IDENTITY,
  data: { ...FREE_FORM, description: 'Custom fields (merged key by key on every write).' },
  marketing_consent: ref('MarketingConsent'),
  tags: { type: 'array', items: ref('ContactTag'), description: 'In tag id order.' },
  channels: ref('ContactChannels'),
  ...CONTACT_TIMES,
});

const BATCH_CONTACT: SchemaObject = fixed(
  {
    ...CONTACT_IDENTITY,
    marketing_consent: ref('MarketingConsent'),
    channels: ref('ContactChannels'),
    ...CONTACT_TIMES,
  },
  'A contact as a batch answers it: without `data` and `tags` (read the contact for them).',
);

const INTEGRATION_FIELDS: Record<string, SchemaObject> = {
  id: ID,
  type: { type: 'string', description: 'Any value of 1–100 characters, as sent.' },
  name: { type: 'string' },
  config: ref('IntegrationConfig'),
  created_at: TIME,
  updated_at: TIME,
};

const PLAN: SchemaObject = { type: 'string', enum: [...PLANS] };

/** The shapes of events, contacts, tags, integrations, the inbound webhook and the operator API. */
export const CONTACTS_SCHEMAS: Record<string, SchemaObject> = {
  RecordedEvent: fixed({
    id: ID,
    name: { type: 'string', pattern: '^[a-z0-9._:-]{1,100}$' },
    contact_id: ID,
    data: { ...FREE_FORM, description: 'The details sent for automations (`{}` when none).' },
    occurred_at: { ...TIME, description: 'As sent, or the time of receipt.' },
    received_at: TIME,
    idempotency_key: {
      ...NULLABLE_TEXT,
      description: 'The Idempotency-Key header it was sent with; null without one and for webhook events.',
    },
  }),
  Contact: CONTACT,
  BatchContact: BATCH_CONTACT,
  MarketingConsent: fixed(
    Object.fromEntries(
      CONSENT_CHANNELS.map((channel) => [channel, { type: ['boolean', 'null'] } as unknown as SchemaObject]),
    ),
    'Every channel of the specification: true (granted), false (withdrawn) or null (never given).',
  ),
  ContactChannels: fixed(
    Object.fromEntries(LINK_CHANNELS.map((channel) => [channel, NULLABLE_TEXT])),
    "The contact's id on each channel it can be linked on, or null.",
  ),
  ContactTag: fixed({ id: ID, name: { type: 'string' }, color: NULLABLE_TEXT }),
  ContactBatchResult: fixed({
    results: {
      type: 'array',
      description: 'One result per element, in the order sent.',
      items: { oneOf: [ref('BatchElementApplied'), ref('BatchElementFailed')] },
    },
    summary: fixed({
      created: { type: 'integer', minimum: 0 },
      updated: { type: 'integer', minimum: 0 },
      failed: { type: 'integer', minimum: 0 },
    }),
  }),
  BatchElementApplied: fixed({
    index: { type: 'integer', minimum: 0 },
    status: { type: 'integer', enum: [200, 201], description: '201 created, 200 updated.' },
    contact: ref('BatchContact'),
  }),
  BatchElementFailed: fixed(
    {
      index: { type: 'integer', minimum: 0 },
      status: { type: 'integer', minimum: 400, maximum: 599, example: 422 },
      errors: { type: 'array', items: ref('JsonApiError') },
    },
    'An element that failed alone: its errors point into `/data/attributes/contacts/<index>`.',
  ),
  Tag: fixed({
    id: ID,
    name: { type: 'string' },
    color: { ...NULLABLE_TEXT, description: '`#rgb` or `#rrggbb`, as sent.' },
    created_at: TIME,
    updated_at: TIME,
  }),
  Integration: fixed(INTEGRATION_FIELDS),
  IntegrationCreated: fixed(
    {
      ...INTEGRATION_FIELDS,
      webhook_url: {
        type: 'string',
        pattern: '/webhook/integration/[A-Za-z0-9_-]{43}$',
        description: 'Where the tool posts its payloads; absolute under PUBLIC_BASE_URL. Shown only here.',
      },
      signing_secret: {
        type: 'string',
        pattern: '^whsec_[A-Za-z0-9_-]{43}$',
        description: 'Keys X-Webhook-Signature. Shown only here.',
      },
    },
    'An integration as its creation answers it: with its URL and signing secret, which no other answer shows.',
  ),
  IntegrationConfig: fixed({
    sync_frequency: NULLABLE_TEXT,
    field_mappings: { type: 'array', items: ref('FieldMapping') },
  }),
  FieldMapping: fixed({
    source: {
      type: 'string',
      description: 'A dot path in the payload (`customer.mobile`, `answers.0.email`).',
    },
    target: { type: 'string', enum: [...FIELD_MAPPING_TARGETS] },
  }),
  InboundWebhookAnswer: fixed({
    event_id: {
      type: ['integer', 'null'],
      minimum: 1,
      description: 'Null when the payload had no event.',
    } as unknown as SchemaObject,
    contact_id: ID,
  }),
  Workspace: fixed({ id: ID, name: { type: 'string' }, plan: PLAN, created_at: TIME, updated_at: TIME }),
  WorkspaceCreated: fixed(
    { id: ID, name: { type: 'string' }, plan: PLAN, created_at: TIME },
    'A workspace as its creation answers it.',
  ),
  CurrentApiKey: fixed(
    {
      id: ID,
      name: { type: 'string' },
      permissions: { type: 'array', items: { type: 'string', enum: [...PERMISSIONS] }, minItems: 1 },
      workspace: fixed({ id: ID, name: { type: 'string' }, plan: PLAN }),
      created_at: TIME,
    },
    'The API key a request was made with (never its secret), and its workspace.',
  ),
  ApiKeyCreated: fixed(
    {
      id: ID,
      name: { type: 'string' },
      permissions: { type: 'array', items: { type: 'string', enum: [...PERMISSIONS] }, minItems: 1 },
      workspace_id: ID,
      created_at: TIME,
      key: {
        type: 'string',
        pattern: '^cms_live_[A-Za-z0-9_-]{43}$',
        description: 'The key itself (`Authorization: Bearer <key>`). Shown only here.',
      },
    },
    'A key as its creation answers it.',
  ),
};
