import { MAX_WORKFLOW_NAME, MAX_WORKFLOW_STEPS, RE_ENTRIES, WORKFLOW_STEP_TYPES } from '@cms/contracts';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

import { ID, TIME, fixed, orNull } from './shapes';

/**
 * Workflows (extensions §12), as the automations service answers them (apps/automations/src:
 * workflow.resource.ts) and the gateway passes them on.
 */

const STEP: SchemaObject = {
  type: 'object',
  required: ['id', 'type'],
  additionalProperties: true,
  description:
    'A step: a unique `id`, a `type` (`send`, `wait`, `branch`, `update_contact`, `exit`), the fields of its type (extensions §12), and `next` where it names the step that follows.',
  properties: {
    id: { type: 'string' },
    type: { type: 'string', enum: [...WORKFLOW_STEP_TYPES] },
  },
};

const WORKFLOW_FIELDS: Record<string, SchemaObject> = {
  id: ID,
  name: { type: 'string', maxLength: MAX_WORKFLOW_NAME },
  enabled: {
    type: 'boolean',
    description: 'A disabled workflow starts nothing; its runs already going go on.',
  },
  trigger: fixed(
    {
      event: { type: 'string', description: 'The event name that starts a run.' },
      filter: {
        type: 'array',
        description:
          'Criteria (extensions §11) over the contact as the event left it, plus `event.data.<path>` of the event; `[]` holds for every contact.',
        items: { type: 'object', additionalProperties: true },
      },
    },
    'What starts a run.',
  ),
  steps: { type: 'array', minItems: 1, maxItems: MAX_WORKFLOW_STEPS, items: STEP },
  goal: orNull(
    fixed({
      event: { type: 'string' },
      within: {
        type: 'string',
        description: 'An ISO 8601 duration, at most P90D, from the start of the run.',
      },
    }),
    'The event that ends a run `goal_reached` and records an outcome, or null.',
  ),
  re_entry: {
    type: 'string',
    enum: [...RE_ENTRIES],
    description:
      '`after_exit` (default): no new run while the contact has one active or waiting; `never`: only one run per contact ever; `always`: a new event replaces a going run.',
  },
  version: {
    type: 'integer',
    minimum: 1,
    description:
      '1 at creation, one more for every change of `trigger`, `steps`, `goal` or `re_entry`; runs finish on the version they started with.',
  },
  created_at: TIME,
  updated_at: TIME,
};

export const AUTOMATIONS_SCHEMAS: Record<string, SchemaObject> = {
  Workflow: fixed(WORKFLOW_FIELDS, 'A workflow (extensions §12): the steps an event starts for a contact.'),
};
