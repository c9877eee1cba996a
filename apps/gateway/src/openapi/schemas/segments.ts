import {
  AUDIENCE_SOURCES,
  CONSENT_CHANNELS,
  IMPORT_JOB_STATUSES,
  IMPORT_ROW_SKIP_REASONS,
  LINK_CHANNELS,
  MAX_AUDIENCE_NAME_LENGTH,
  MAX_IMPORT_JOB_ERRORS,
  MAX_IMPORT_ROWS,
  MAX_PREVIEW_LIMIT,
} from '@cms/contracts';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

import { COUNT, ID, NULLABLE_TEXT, NULLABLE_TIME, TIME, fixed } from './shapes';

/**
 * Audiences, their preview and imports (extensions §11), as the segments service answers them
 * (apps/segments/src: audience.resource.ts, preview-contacts.ts, import-uploads.controller.ts,
 * import-job.resource.ts) and the gateway passes them on.
 */

/** What an audience answers besides `size` (the data of its facts). */
const AUDIENCE_FIELDS: Record<string, SchemaObject> = {
  id: ID,
  name: { type: 'string', maxLength: MAX_AUDIENCE_NAME_LENGTH },
  source: {
    type: 'string',
    enum: [...AUDIENCE_SOURCES],
    description: '`filters` for an audience made through the API, `import` for one an import made.',
  },
  filter_criteria: {
    type: 'array',
    description:
      'The criteria as they were sent (all must hold): conditions `{"field", "operator", "value"}` and groups `{"any": [...]}`, `{"all": [...]}`, `{"not": {...}}` (extensions §11). `[]` matches every contact; always `[]` on an import audience.',
    items: { type: 'object', additionalProperties: true },
  },
  include_contact_ids: {
    type: 'array',
    description: 'Contacts that are members whatever the criteria say; each id once.',
    items: ID,
  },
  exclude_contact_ids: {
    type: 'array',
    description: 'Contacts that are never members; each id once.',
    items: ID,
  },
  created_at: TIME,
  updated_at: TIME,
};

const SIZE: SchemaObject = {
  type: 'integer',
  minimum: 0,
  description: 'The exact number of members as of this answer (counted at every read, never stored).',
};

/** The contact of a preview's sample, as `GET /api/v1/contacts/{id}` shows it (extensions §2). */
const PREVIEW_CONTACT = fixed(
  {
    id: ID,
    name: NULLABLE_TEXT,
    phone: NULLABLE_TEXT,
    email: NULLABLE_TEXT,
    external_id: NULLABLE_TEXT,
    source: NULLABLE_TEXT,
    data: {
      type: 'object',
      additionalProperties: true,
      description: "The contact's custom fields, as stored.",
    },
    marketing_consent: fixed(
      Object.fromEntries(CONSENT_CHANNELS.map((channel) => [channel, { type: ['boolean', 'null'] }])),
      'Every channel: `true` or `false` as last recorded, `null` where nothing was ever recorded.',
    ),
    tags: {
      type: 'array',
      description: "The contact's tags, by id.",
      items: fixed({ id: ID, name: { type: 'string' }, color: NULLABLE_TEXT }),
    },
    channels: fixed(
      Object.fromEntries(LINK_CHANNELS.map((channel) => [channel, NULLABLE_TEXT])),
      "The contact's own id on each linkable channel, `null` where none is linked.",
    ),
    created_at: TIME,
    updated_at: TIME,
  },
  'A contact as `GET /api/v1/contacts/{id}` shows it.',
);

export const SEGMENTS_SCHEMAS: Record<string, SchemaObject> = {
  Audience: fixed(
    { ...AUDIENCE_FIELDS, size: SIZE },
    'An audience (extensions §11): a contact is a member when it is in `include_contact_ids`, or matches every criterion (an import audience: was imported into it), and is not in `exclude_contact_ids`.',
  ),
  AudienceWritten: {
    type: 'object',
    description:
      'An audience as a create or an update answers it: as a read shows it right after the write, with its `size`. Should that read fail, the audience as written, without `size` (the write happened either way).',
    required: Object.keys(AUDIENCE_FIELDS),
    additionalProperties: false,
    properties: { ...AUDIENCE_FIELDS, size: SIZE },
  },
  AudiencePreviewContact: PREVIEW_CONTACT,
  AudiencePreview: fixed(
    {
      count: {
        type: 'integer',
        minimum: 0,
        description: 'The exact number of contacts the definition matches now.',
      },
      sample: {
        type: 'array',
        maxItems: MAX_PREVIEW_LIMIT,
        description: 'The first `limit` of them (default 10) by id.',
        items: { $ref: '#/components/schemas/AudiencePreviewContact' },
      },
      reachable: fixed(
        Object.fromEntries(CONSENT_CHANNELS.map((channel) => [channel, COUNT])),
        'For every channel type, how many of all matching contacts (not only the sample) could receive a marketing message now: an address for the channel, marketing consent `true` on it, and not on the suppression list for it.',
      ),
      computed_at: {
        ...TIME,
        description: 'The moment the definition was evaluated (relative dates are relative to it).',
      },
    },
    'The live preview of an audience definition.',
  ),
  ImportUpload: fixed(
    {
      path: {
        type: 'string',
        pattern: '^upl_[0-9a-f]{32}$',
        description:
          'Names the upload for `POST /api/v1/audience-import/process`, for 24 hours and in this workspace only.',
      },
      columns: {
        type: 'array',
        description: 'The header row: every column once, trimmed, in file order.',
        items: { type: 'string', minLength: 1 },
      },
      sample_rows: {
        type: 'array',
        maxItems: 5,
        description:
          'The first five data rows, each keyed by every column (a short row completed with empty cells).',
        items: { type: 'object', additionalProperties: { type: 'string' } },
      },
      row_count: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_IMPORT_ROWS,
        description: 'The data rows stored: the header, blank lines and rows of empty cells not counted.',
      },
      delimiter: {
        type: 'string',
        enum: [',', ';', '\t'],
        description: 'The separator the header row uses most (a comma when it uses none).',
      },
    },
    'A stored upload: the first step of an import.',
  ),
  ImportJobQueued: fixed(
    {
      job_id: ID,
      audience_id: { ...ID, description: 'The import audience the job fills (`source: import`).' },
      status: {
        type: 'string',
        enum: ['queued'],
        description: 'Always `queued`: the job as decided; read it for its progress.',
      },
    },
    'An import job as queued.',
  ),
  ImportJob: fixed(
    {
      id: ID,
      status: { type: 'string', enum: [...IMPORT_JOB_STATUSES] },
      audience_id: ID,
      rows_total: { type: 'integer', minimum: 0, maximum: MAX_IMPORT_ROWS },
      rows_processed: COUNT,
      contacts_created: COUNT,
      contacts_matched: COUNT,
      rows_skipped: COUNT,
      errors: {
        type: 'array',
        maxItems: MAX_IMPORT_JOB_ERRORS,
        description: 'The first 100 skipped rows, in row order.',
        items: fixed({
          row: { type: 'integer', minimum: 1, description: 'The 1-based data row.' },
          reason: { type: 'string', enum: [...IMPORT_ROW_SKIP_REASONS] },
        }),
      },
      created_at: TIME,
      started_at: NULLABLE_TIME,
      finished_at: {
        ...NULLABLE_TIME,
        description: 'When it completed, or the moment it could no longer complete (`failed`).',
      },
      updated_at: {
        ...TIME,
        description: 'Its creation, its last decided chunk of rows or its end, whichever is latest.',
      },
    },
    'An import job (extensions §11) and its progress.',
  ),
};
