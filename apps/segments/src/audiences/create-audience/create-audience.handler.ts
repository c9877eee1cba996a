import { SEGMENTS_FACT_TYPES, type AudienceCreateRequestedV1 } from '@cms/contracts';
import type { Answer, Decision } from '@cms/kafka';
import { Injectable } from '@nestjs/common';

import { SegmentsException } from '../../decisions/segments.exception';
import { AudienceEntity } from '../audience.entity';
import { AudienceRepository } from '../audience.repository';
import { audienceFact, audienceResource } from '../audience.resource';

/** `audience.create.requested`: a new audience, its name unique in the workspace. */
@Injectable()
export class CreateAudienceHandler {
  async handle(decision: Decision<AudienceCreateRequestedV1>): Promise<Answer> {
    const { audience_id: id, name } = decision.data;
    const audiences = new AudienceRepository(decision.manager);
    if (await audiences.exists(id)) throw SegmentsException.idInUse(id);
    if (await audiences.nameTaken(decision.workspaceId, name)) throw SegmentsException.nameTaken(name);
    const audience = Object.assign(new AudienceEntity(), {
      id,
      workspaceId: decision.workspaceId,
      name,
      source: 'filters',
      filterCriteria: decision.data.filter_criteria ?? [],
      includeContactIds: decision.data.include_contact_ids ?? [],
      excludeContactIds: decision.data.exclude_contact_ids ?? [],
      createdAt: decision.atDate,
      updatedAt: decision.atDate,
    });
    await audiences.insert(audience);
    decision.fact(SEGMENTS_FACT_TYPES.audienceCreated, String(id), audienceFact(audience));
    return { status: 201, resource: audienceResource(audience, 0) };
  }
}
