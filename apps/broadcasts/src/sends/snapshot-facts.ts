import {
  BROADCAST_INPUT_TYPES,
  SEGMENTS_FACT_TYPES,
  SEGMENTS_RECORD_TYPES,
  SNAPSHOT_PART_SIZE,
  selectRecordTypes,
  type AudienceSnapshotPartV1,
  type AudienceSnapshotTakenV1,
  type DecodedRecord,
  type NotificationSendSnapshotRecordedV1,
} from '@cms/contracts';
import { recordContext, type ChunkHandler, type ChunkRecord } from '@cms/kafka';
import { Controller, Inject, Injectable, Module } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import type { EntityManager } from 'typeorm';

import { BROADCASTS_CONFIG, type BroadcastsConfig } from '../config';
import { SEGMENTS_TRANSPORT } from '../transports';
import { emitSendInput } from './send-inputs';

export const SNAPSHOT_FACT_TYPES = [
  SEGMENTS_FACT_TYPES.snapshotPart,
  SEGMENTS_FACT_TYPES.snapshotTaken,
] as const;

const SELECTION = selectRecordTypes(SNAPSHOT_FACT_TYPES, SEGMENTS_RECORD_TYPES);

export const SNAPSHOT_FACT_RECORD_TYPES = SELECTION.definitions;

/**
 * A send's audience as the segments service took it (extensions §13: taken once, when the send
 * starts, and a fact of the log): each part's members become send_members rows, written whatever
 * the send's state, so that a rebuild reading this topic ahead of the requests topic makes the same
 * rows; the snapshot being whole becomes notification-send.snapshot.recorded on the requests topic,
 * which the send's decisions meet in their own order.
 */
@Injectable()
export class SnapshotFacts implements ChunkHandler {
  constructor(@Inject(BROADCASTS_CONFIG) private readonly config: BroadcastsConfig) {}

  takes(record: DecodedRecord): boolean {
    return SELECTION.takes(record);
  }

  /** A part holds thousands of members: applied in a transaction of its own. */
  worthAlone(record: Pick<DecodedRecord, 'type'>): boolean {
    return record.type === SEGMENTS_FACT_TYPES.snapshotPart;
  }

  async apply(records: ChunkRecord[], manager: EntityManager): Promise<void> {
    for (const { record, context } of records) {
      if (record.type === SEGMENTS_FACT_TYPES.snapshotPart) {
        await addMembers(manager, record.data as AudienceSnapshotPartV1);
        continue;
      }
      const taken = record.data as AudienceSnapshotTakenV1;
      const data: NotificationSendSnapshotRecordedV1 = {
        send_id: taken.snapshot_id,
        found: taken.found,
        audience_size: taken.audience_size,
        deduplicated: taken.deduplicated,
      };
      emitSendInput(
        context,
        this.config.topics.requests,
        record,
        BROADCAST_INPUT_TYPES.snapshotTaken,
        data.send_id,
        'snapshot',
        data,
      );
    }
  }
}

/** One statement for a part's members; a part read again (a replay) adds nothing. */
async function addMembers(manager: EntityManager, part: AudienceSnapshotPartV1): Promise<void> {
  if (part.contact_ids.length === 0) return;
  await manager.query(
    `INSERT INTO send_members (send_id, position, contact_id)
     SELECT $1, $2 + ordinality - 1, contact_id
       FROM unnest($3::bigint[]) WITH ORDINALITY AS member(contact_id, ordinality)
     ON CONFLICT DO NOTHING`,
    [part.snapshot_id, part.part * SNAPSHOT_PART_SIZE, part.contact_ids],
  );
}

/** A lone snapshot fact. */
@Controller()
export class SnapshotFactsConsumer {
  constructor(@Inject(SnapshotFacts) private readonly facts: SnapshotFacts) {}

  @EventPattern(SNAPSHOT_FACT_TYPES, SEGMENTS_TRANSPORT)
  apply(@Payload() record: DecodedRecord, @Ctx() rawContext: unknown): Promise<void> {
    const context = recordContext(rawContext);
    return this.facts.apply([{ record, context, inSpan: (work) => work() }], context.manager);
  }
}

@Module({ controllers: [SnapshotFactsConsumer], providers: [SnapshotFacts], exports: [SnapshotFacts] })
export class SnapshotFactsModule {}
