import type { DecodedRecord } from '@cms/contracts';
import { recordContext, type ChunkHandler, type ChunkRecord } from '@cms/kafka';
import { Controller, Injectable } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import type { EntityManager } from 'typeorm';

import { MESSAGING_TRANSPORT } from '../transports';
import { applySuppressionFacts, isSuppressionFact, SUPPRESSION_VIEW_TYPES } from './suppression-projection';

/**
 * Keeps the segments service's view of suppressions up to date from cms.messaging.v1, below the
 * replay horizon too: the view is a projection. (Its contacts, tags and events: see contact-view.)
 */
@Controller()
export class ViewFactsConsumer {
  @EventPattern(SUPPRESSION_VIEW_TYPES, MESSAGING_TRANSPORT)
  async suppressions(@Payload() record: DecodedRecord, @Ctx() rawContext: unknown): Promise<void> {
    const context = recordContext(rawContext);
    await applySuppressionFacts(context.manager, [{ record, context, inSpan: (work) => work() }]);
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
