import { readFilterCriteria, type FilterNode } from '@cms/contracts';
import type { EntityManager } from 'typeorm';

import { SegmentsException } from '../decisions/segments.exception';
import { AudienceCycleError, referencedAudiences, resolveReferences } from './audience-evaluation';
import { AudienceEntity } from './audience.entity';

/** What a write gives an audience, as the request carries it. */
export interface AudienceFields {
  filter_criteria?: unknown[] | null;
  include_contact_ids?: number[] | null;
  exclude_contact_ids?: number[] | null;
}

/**
 * The rules of extensions §11 every audience write meets, in log order: a filter the language reads,
 * audiences it names that exist in the workspace and lead back to none of their referrers, and
 * contact lists whose every id is a contact of the workspace (as the view holds them).
 */
export class AudienceRules {
  constructor(private readonly manager: EntityManager) {}

  /** The filter read, or the 422 of its every problem. */
  async criteria(
    workspaceId: number,
    raw: unknown[] | null | undefined,
    self?: number,
  ): Promise<FilterNode[]> {
    const reading = readFilterCriteria(raw);
    if (!reading.ok) throw SegmentsException.invalidFilter(reading.problems);
    if (referencedAudiences(reading.criteria).length === 0) return reading.criteria;
    try {
      const { missing } = await resolveReferences(this.manager, workspaceId, reading.criteria, self);
      if (missing.length > 0) throw SegmentsException.unknownAudiences(missing);
    } catch (error) {
      if (error instanceof AudienceCycleError) throw SegmentsException.audienceCycle(error.path);
      throw error;
    }
    return reading.criteria;
  }

  /** Refuses the ids of `field` that name no contact of the workspace. */
  async contacts(
    workspaceId: number,
    field: string,
    ids: readonly number[] | null | undefined,
  ): Promise<number[]> {
    const list = [...new Set(ids ?? [])];
    if (list.length === 0) return [];
    const rows: Array<{ id: string }> = await this.manager.query(
      'SELECT id FROM contacts WHERE workspace_id = $1 AND id = ANY($2::bigint[])',
      [workspaceId, list],
    );
    const known = new Set(rows.map((row) => Number(row.id)));
    const unknown = (ids ?? []).map((id, index) => ({ id, index })).filter(({ id }) => !known.has(id));
    if (unknown.length > 0) throw SegmentsException.unknownContacts(field, unknown.slice(0, 100));
    return list;
  }

  /** The audiences of the workspace whose filter names `id`. */
  async referrers(workspaceId: number, id: number): Promise<number[]> {
    const audiences = await this.manager.getRepository(AudienceEntity).findBy({ workspaceId });
    return audiences
      .filter((audience) => audience.id !== id)
      .filter((audience) => {
        const reading = readFilterCriteria(audience.filterCriteria);
        return reading.ok && reading.audienceIds.includes(id);
      })
      .map((audience) => audience.id)
      .sort((a, b) => a - b);
  }
}
