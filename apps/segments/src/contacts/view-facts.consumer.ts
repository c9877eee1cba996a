import type { DecodedRecord } from '@cms/contracts';
import { recordContext, type ChunkHandler, type ChunkRecord } from '@cms/kafka';
import { Controller, Injectable } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import type { EntityManager } from 'typeorm';

import { CONTACTS_TRANSPORT, MESSAGING_TRANSPORT } from '../transports';
import { applyContactFacts, CONTACT_VIEW_TYPES, isContactViewFact } from './contact-projection';
import { applySuppressionFacts, isSuppressionFact, SUPPRESSION_VIEW_TYPES } from './suppression-projection';

function alone(record: DecodedRecord, rawContext: unknown): ChunkRecord {
  const context = recordContext(rawContext);
  return { record, context, inSpan: (work) => work() };
}

/**
 * Keeps the segments service's view of contacts up to date from cms.contacts.v1 (contacts, tags,
 * events) and cms.messaging.v1 (suppressions), below the replay horizon too: the view is a projection.
 */
@Controller()
export class ViewFactsConsumer {
  @EventPattern(CONTACT_VIEW_TYPES, CONTACTS_TRANSPORT)
  async contacts(@Payload() record: DecodedRecord, @Ctx() rawContext: unknown): Promise<void> {
    const chunk = alone(record, rawContext);
    await applyContactFacts(chunk.context.manager, [chunk]);
  }

  @EventPattern(SUPPRESSION_VIEW_TYPES, MESSAGING_TRANSPORT)
  async suppressions(@Payload() record: DecodedRecord, @Ctx() rawContext: unknown): Promise<void> {
    const chunk = alone(record, rawContext);
    await applySuppressionFacts(chunk.context.manager, [chunk]);
  }
}

/** Contact facts come thousands a second (an import creates a million): a run is applied at once. */
@Injectable()
export class ContactViewChunk implements ChunkHandler {
  takes(record: DecodedRecord): boolean {
    return isContactViewFact(record);
  }

  apply(records: ChunkRecord[], manager: EntityManager): Promise<void> {
    return applyContactFacts(manager, records);
  }
}

@Injectable()
export class SuppressionViewChunk implements ChunkHandler {
  takes(record: DecodedRecord): boolean {
    return isSuppressionFact(record);
  }

  apply(records: ChunkRecord[], manager: EntityManager): Promise<void> {
    return applySuppressionFacts(manager, records);
  }
}
