import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

import { one, type OperationDoc, type SuccessAnswer } from '../../openapi/documented.decorator';

const TEXT_OR_NUMBER: SchemaObject = { oneOf: [{ type: 'string', maxLength: 255 }, { type: 'number' }] };

/**
 * Any JSON object: these are the members read when no field mapping says otherwise. Other members are
 * accepted and ignored unless a field mapping points at them.
 */
export const INBOUND_PAYLOAD_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: true,
  description:
    'Any JSON object of at most 1 MiB. Contact details are read from config.field_mappings first, then from the default places below. At least a phone, an email or an ID is required.',
  properties: {
    event: {
      type: 'string',
      pattern: '^[a-z0-9._:-]{1,100}$',
      description: 'Event name; without it the payload only adds or updates the contact.',
    },
    data: { type: 'object', description: 'The event data (with event).' },
    occurred_at: { type: 'string', format: 'date-time', nullable: true, description: 'With event.' },
    id: {
      ...TEXT_OR_NUMBER,
      description:
        'Retry id: a payload with the same id is recorded once. Also the contact ID after external_id.',
    },
    external_id: TEXT_OR_NUMBER,
    phone: TEXT_OR_NUMBER,
    email: { type: 'string', format: 'email' },
    name: { type: 'string' },
    first_name: { type: 'string' },
    last_name: { type: 'string' },
    marketing_consent: {
      type: 'object',
      additionalProperties: { type: 'boolean' },
      description: 'Channel name to boolean; omitted channels unchanged.',
    },
    opt_in: {
      type: 'boolean',
      description: 'true grants, false withdraws marketing consent on every channel.',
    },
    contact: {
      type: 'object',
      properties: {
        id: TEXT_OR_NUMBER,
        external_id: TEXT_OR_NUMBER,
        phone: TEXT_OR_NUMBER,
        email: { type: 'string', format: 'email' },
        name: { type: 'string' },
        first_name: { type: 'string' },
        last_name: { type: 'string' },
        data: { type: 'object', description: 'Custom fields stored on the contact.' },
        marketing_consent: { type: 'object', additionalProperties: { type: 'boolean' } },
      },
    },
  },
};

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': {
    description: 'Requests this integration may receive a minute (1,200).',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': { description: 'Requests left this minute.', schema: { type: 'integer' } },
} satisfies SuccessAnswer['headers'];

/** What the document says of `POST /webhook/integration/{token}` (its errors are added by the document). */
export const INBOUND_WEBHOOK_DOC: OperationDoc = {
  tag: 'Inbound webhook',
  summary: 'Receive a payload: record an event and/or add or update a contact',
  description:
    'No API key: X-Webhook-Signature is the hex HMAC-SHA256 of the raw body keyed with the signing secret ' +
    '(optionally prefixed sha256=); a missing or wrong one is 401 and nothing is recorded. Available on every ' +
    'plan; 1,200 requests a minute per integration. With `event` the payload records an event exactly as ' +
    '`POST /api/v1/events` does; without it, it only adds or updates the contact. A retry with the same ' +
    'Idempotency-Key or the same top-level `id` is recorded once and answered 200 with the original ids.',
  headers: {
    'X-Webhook-Signature': { required: true, description: '[sha256=]<hex HMAC-SHA256 of the raw body>' },
    'Idempotency-Key': {
      description: '1–255 characters: a retry with the same key is recorded once.',
    },
  },
  answers: {
    202: {
      description: 'Recorded: the event id (null without an event) and the contact id.',
      schema: one('InboundWebhookAnswer'),
      headers: RATE_LIMIT_HEADERS,
    },
    200: {
      description: 'A retry (same Idempotency-Key or payload id): the original ids; nothing recorded again.',
      schema: one('InboundWebhookAnswer'),
      headers: RATE_LIMIT_HEADERS,
    },
  },
};
