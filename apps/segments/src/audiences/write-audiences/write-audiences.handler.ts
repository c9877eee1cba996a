import {
  SEGMENTS_FACT_TYPES,
  type AudienceCreateRequestedV1,
  type AudienceDeleteRequestedV1,
  type AudienceUpdateRequestedV1,
} from '@cms/contracts';
import type { Answer, Decision } from '@cms/kafka';
import { Injectable } from '@nestjs/common';

import { SegmentsException } from '../../decisions/segments.exception';
import { AudienceRules } from '../audience-rules';
import { AudienceEntity } from '../audience.entity';
import { AudienceRepository } from '../audience.repository';
import { audienceFact } from '../audience.resource';

/** A contact list once each, in the order sent. */
function distinct(ids: readonly number[] | null | undefined): number[] {
  return [...new Set(ids ?? [])];
}

/**
 * Audience writes (extensions §11), decided in log order. Every rule they meet is read from the
 * requests topic alone (audiences), so a rebuild decides them as live did: contact ids were checked
 * by the gateway with the contacts service before the request was recorded (contacts are never
 * removed), not against this service's view of contacts, which another topic feeds at its own pace.
 * The answer carries the audience without `size`: the gateway reads it back from the service, which
 * counts its members as of that read.
 */
@Injectable()
export class WriteAudiencesHandler {
  async create(decision: Decision<AudienceCreateRequestedV1>): Promise<Answer> {
    const { data, workspaceId } = decision;
    const audiences = new AudienceRepository(decision.manager);
    const rules = new AudienceRules(decision.manager);
    if (await audiences.exists(data.audience_id)) throw SegmentsException.idInUse(data.audience_id);
    if (await audiences.nameTaken(workspaceId, data.name)) throw SegmentsException.nameTaken(data.name);
    await rules.criteria(workspaceId, data.filter_criteria, data.audience_id);
    const audience = Object.assign(new AudienceEntity(), {
      id: data.audience_id,
      workspaceId,
      name: data.name,
      source: 'filters',
      filterCriteria: data.filter_criteria ?? [],
      includeContactIds: distinct(data.include_contact_ids),
      excludeContactIds: distinct(data.exclude_contact_ids),
      createdAt: decision.atDate,
      updatedAt: decision.atDate,
    });
    await audiences.insert(audience);
    const fact = audienceFact(audience);
    decision.fact(SEGMENTS_FACT_TYPES.audienceCreated, String(audience.id), fact);
    return { status: 201, resource: { ...fact } };
  }

  /** Only the fields sent change; null empties a list or the filter. */
  async update(decision: Decision<AudienceUpdateRequestedV1>): Promise<Answer> {
    const { data, workspaceId } = decision;
    const audiences = new AudienceRepository(decision.manager);
    const rules = new AudienceRules(decision.manager);
    const audience = await audiences.findInWorkspace(workspaceId, data.audience_id);
    if (!audience) throw SegmentsException.audienceNotFound(data.audience_id);
    if (data.name !== undefined && data.name !== audience.name) {
      if (await audiences.nameTaken(workspaceId, data.name)) throw SegmentsException.nameTaken(data.name);
      audience.name = data.name;
    }
    if (data.filter_criteria !== undefined) {
      if (audience.source === 'import' && (data.filter_criteria ?? []).length > 0) {
        throw SegmentsException.invalidImport(
          'An import audience is made of the contacts of its file; it takes no filter.',
          '/data/attributes/filter_criteria',
        );
      }
      await rules.criteria(workspaceId, data.filter_criteria, audience.id);
      audience.filterCriteria = data.filter_criteria ?? [];
    }
    if (data.include_contact_ids !== undefined)
      audience.includeContactIds = distinct(data.include_contact_ids);
    if (data.exclude_contact_ids !== undefined)
      audience.excludeContactIds = distinct(data.exclude_contact_ids);
    audience.updatedAt = decision.atDate;
    await audiences.save(audience);
    const fact = audienceFact(audience);
    decision.fact(SEGMENTS_FACT_TYPES.audienceUpdated, String(audience.id), fact);
    return { status: 200, resource: { ...fact } };
  }

  /** An audience another one's filter names stays (409) until that filter changes. */
  async delete(decision: Decision<AudienceDeleteRequestedV1>): Promise<Answer> {
    const { data, workspaceId } = decision;
    const audiences = new AudienceRepository(decision.manager);
    const audience = await audiences.findInWorkspace(workspaceId, data.audience_id);
    if (!audience) throw SegmentsException.audienceNotFound(data.audience_id);
    const referrers = await new AudienceRules(decision.manager).referrers(workspaceId, audience.id);
    if (referrers.length > 0) throw SegmentsException.audienceInUse(audience.id, referrers);
    await audiences.remove(audience.id);
    decision.fact(SEGMENTS_FACT_TYPES.audienceDeleted, String(audience.id), {
      id: audience.id,
      at: decision.at,
    });
    return { status: 204 };
  }
}
