import type { DecodedRecord } from '@cms/contracts';
import { recordContext, type ChunkHandler, type ChunkRecord } from '@cms/kafka';
import { Controller, Injectable } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import type { EntityManager } from 'typeorm';

import { CONTACTS_TRANSPORT } from '../transports';
import { applyContactFacts, CONTACT_PROJECTION_TYPES, isProjectedContactFact } from './contact-projection';

/**
 * Keeps the contact view up to date from cms.contacts.v1, below the replay horizon too: the view is
 * a projection, rebuilt like the service's own tables.
 */
@Controller()
export class ContactFactsConsumer {
  @EventPattern(CONTACT_PROJECTION_TYPES, CONTACTS_TRANSPORT)
  async project(@Payload() record: DecodedRecord, @Ctx() rawContext: unknown): Promise<void> {
    await applyContactFacts(recordContext(rawContext).manager, [record]);
  }
}

/**
 * Contact facts come thousands a second: a chunk of them is applied with a statement or two (the
 * stored rows its links change read at once, every touched row written at once), leaving what applying
 * them one by one leaves.
 */
@Injectable()
export class ContactFactsChunk implements ChunkHandler {
  takes(record: DecodedRecord): boolean {
    return isProjectedContactFact(record);
  }

  async apply(records: ChunkRecord[], manager: EntityManager): Promise<void> {
    await applyContactFacts(
      manager,
      records.map(({ record }) => record),
    );
  }
}
