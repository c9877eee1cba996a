import {
  SEGMENTS_FACT_TYPES,
  SNAPSHOT_PART_SIZE,
  type AudienceSnapshotPartV1,
  type AudienceSnapshotRequestedV1,
  type AudienceSnapshotTakenV1,
} from '@cms/contracts';
import type { Answer, Decision } from '@cms/kafka';
import { Inject, Injectable } from '@nestjs/common';

import { AudienceEvaluator, definitionOf } from '../audience-evaluation';
import { AudienceRepository } from '../audience.repository';
import { snapshotMembers } from './snapshot-members';

/**
 * `audience.snapshot.requested`, from the broadcasts service as a send starts (extensions §13): the
 * audience's members now, evaluated as its size is, with the decision's time as "now", deduplicated by
 * recipient address for the send's channel, published as `audience.snapshot.part` facts of at most
 * SNAPSHOT_PART_SIZE contact ids in id order and then one `audience.snapshot.taken`. The facts go out
 * with the consumer's checkpoint and their ids derive from the record, so the send reads them whole
 * or not at all, and a record decided again publishes the same ids.
 */
@Injectable()
export class SnapshotAudienceHandler {
  constructor(@Inject(AudienceEvaluator) private readonly evaluator: AudienceEvaluator) {}

  /**
   * `replaying`: the record is below the replay horizon, where an earlier life published the facts;
   * the snapshot is only recorded, as evaluating a million members for facts nobody makes is waste.
   */
  async handle(decision: Decision<AudienceSnapshotRequestedV1>, replaying: boolean): Promise<Answer> {
    const { snapshot_id: snapshotId, audience_id: audienceId, channel } = decision.data;
    const { manager, workspaceId } = decision;
    const recorded: unknown[] = await manager.query(
      `INSERT INTO audience_snapshots (workspace_id, snapshot_id, audience_id, at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (workspace_id, snapshot_id) DO NOTHING RETURNING snapshot_id`,
      [workspaceId, snapshotId, audienceId, decision.atDate],
    );
    // Taken before: the same record delivered again, whose members may have changed since.
    if (recorded.length === 0 || replaying) return { status: 202 };
    const subject = String(snapshotId);
    const taken = (found: boolean, parts: number, audienceSize: number, deduplicated: number): void => {
      const fact: AudienceSnapshotTakenV1 = {
        snapshot_id: snapshotId,
        audience_id: audienceId,
        found,
        parts,
        audience_size: audienceSize,
        deduplicated,
        at: decision.at,
      };
      decision.fact(SEGMENTS_FACT_TYPES.snapshotTaken, subject, fact);
    };
    const audience = await new AudienceRepository(manager).findInWorkspace(workspaceId, audienceId);
    if (!audience) {
      taken(false, 0, 0, 0);
      return { status: 202 };
    }
    const { index, set } = await this.evaluator.members(
      manager,
      workspaceId,
      definitionOf(audience),
      decision.atDate.getTime(),
      audience.id,
    );
    const members = snapshotMembers(index, set, channel);
    const ids = members.contactIds;
    let parts = 0;
    for (let from = 0; from < ids.length; from += SNAPSHOT_PART_SIZE) {
      const part: AudienceSnapshotPartV1 = {
        snapshot_id: snapshotId,
        audience_id: audienceId,
        part: parts,
        contact_ids: ids.slice(from, from + SNAPSHOT_PART_SIZE),
      };
      decision.fact(SEGMENTS_FACT_TYPES.snapshotPart, subject, part);
      parts += 1;
    }
    taken(true, parts, members.audienceSize, members.deduplicated);
    return { status: 202 };
  }
}
