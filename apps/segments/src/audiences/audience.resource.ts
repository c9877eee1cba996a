import type { AudienceFactV1 } from '@cms/contracts';

import type { AudienceEntity } from './audience.entity';

/** The data of the audience facts: the resource without `size`, which moves with the contacts. */
export function audienceFact(audience: AudienceEntity): AudienceFactV1 {
  return {
    id: audience.id,
    name: audience.name,
    source: audience.source,
    filter_criteria: audience.filterCriteria,
    include_contact_ids: audience.includeContactIds,
    exclude_contact_ids: audience.excludeContactIds,
    created_at: audience.createdAt.toISOString(),
    updated_at: audience.updatedAt.toISOString(),
  };
}

/** The audience as the API shows it, with its exact size as of the answer. */
export function audienceResource(audience: AudienceEntity, size: number): Record<string, unknown> {
  return { ...audienceFact(audience), size };
}
