import type { DecodedRecord } from '@cms/contracts';
import { recordContext, type ChunkHandler, type ChunkRecord } from '@cms/kafka';
import { Controller, Injectable } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import type { EntityManager } from 'typeorm';

import { FACTS_TRANSPORT } from '../../transports';
import { WEBHOOK_SOURCE_FACT_TYPES, WEBHOOK_SOURCES } from '../webhook-sources';
import { FanOut } from './fan-out';

/**
 * Turns each fact of the table into one delivery per endpoint that receives its kind, inside the
 * consumer's transaction: the deliveries and the checkpoint commit together, and sending happens in the
 * delivery worker, never here.
 */
@Controller()
export class SourceFactsConsumer {
  @EventPattern(WEBHOOK_SOURCE_FACT_TYPES, FACTS_TRANSPORT)
  async fanOut(@Payload() record: DecodedRecord, @Ctx() rawContext: unknown): Promise<void> {
    if (!WEBHOOK_SOURCES[record.type]) return;
    const context = recordContext(rawContext);
    // Below the replay horizon the deliveries of this fact were made by an earlier life of the schema.
    if (context.replaying) return;
    await FanOut.apply(context.manager, record, context.offset);
  }
}

/**
 * The facts of a chunk fanned out together: their workspaces' endpoints read with one statement and
 * their deliveries made with another, instead of two per fact. The deliveries are those each fact
 * makes on its own (the facts consumer never changes endpoints, so no fact of the chunk sees another's
 * effect).
 */
@Injectable()
export class SourceFactsChunk implements ChunkHandler {
  takes(record: DecodedRecord): boolean {
    return WEBHOOK_SOURCES[record.type] !== undefined;
  }

  async apply(records: ChunkRecord[], manager: EntityManager): Promise<void> {
    const facts = records.filter(({ context }) => !context.replaying);
    if (facts.length === 0) return;
    const fanOut = await FanOut.load(
      manager,
      facts.map(({ record }) => record),
    );
    const deliveries = [];
    for (const { record, context, inSpan } of facts)
      deliveries.push(...(await inSpan(async () => fanOut.deliveriesOf(record, context.offset))));
    await FanOut.create(manager, deliveries);
  }
}
