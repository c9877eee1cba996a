import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

import { AUTOMATIONS_SCHEMAS } from './schemas/automations';
import { CONTACTS_SCHEMAS } from './schemas/contacts';
import { MESSAGING_SCHEMAS } from './schemas/messaging';
import { NOTIFICATIONS_SCHEMAS } from './schemas/notifications';
import { SEGMENTS_SCHEMAS } from './schemas/segments';
import { WEBHOOKS_SCHEMAS } from './schemas/webhooks';

/**
 * The shapes the API answers with and the webhooks carry, by name: every one is exactly what a
 * customer receives (every field present, `null` where it has no value; nothing more), so the
 * end-to-end suites check each answer against them.
 */
export const PUBLIC_SCHEMAS: Record<string, SchemaObject> = {
  ...CONTACTS_SCHEMAS,
  ...MESSAGING_SCHEMAS,
  ...SEGMENTS_SCHEMAS,
  ...AUTOMATIONS_SCHEMAS,
  ...NOTIFICATIONS_SCHEMAS,
  ...WEBHOOKS_SCHEMAS,
};
