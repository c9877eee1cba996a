import type { ApiResponseOptions } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

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

const ANSWER: SchemaObject = {
  type: 'object',
  required: ['data'],
  properties: {
    data: {
      type: 'object',
      required: ['event_id', 'contact_id'],
      properties: {
        event_id: { type: 'integer', nullable: true, description: 'Null when the payload had no event.' },
        contact_id: { type: 'integer' },
      },
    },
  },
};

export const INBOUND_RESPONSES = {
  accepted: { status: 202, description: 'Recorded.', schema: ANSWER },
  repeated: {
    status: 200,
    description: 'A retry (same Idempotency-Key or payload id): the original ids, nothing recorded again.',
    schema: ANSWER,
  },
} satisfies Record<string, ApiResponseOptions>;
