import type { DecodedRecord } from '@cms/contracts';
import { recordContext, type ChunkHandler, type ChunkRecord } from '@cms/kafka';
import {
  Controller,
  Inject,
  Injectable,
  Module,
  Optional,
  type DynamicModule,
  type Type,
} from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import type { EntityManager } from 'typeorm';

import type { ContactViewRow } from './contact-view.entity';
import type { ContactView } from './contact-view';

/** A service's contact view, wired: its module, and the chunk handler its contacts consumer declares. */
export interface ContactViewConsumer {
  /** For the service's modules: the handler of a lone record and the chunk handler. */
  module: DynamicModule;
  /** For the consumer's `chunk`: a run of contact facts (thousands a second) is applied at once. */
  chunk: Type<ChunkHandler>;
}

/**
 * The consumer side of a service's view of contacts, on the transport of the consumer that reads
 * cms.contacts.v1 (below the replay horizon too: the view is a projection, rebuilt like the service's
 * own tables).
 */
export function contactViewConsumer<E extends ContactViewRow>(
  view: ContactView<E>,
  transportId: symbol,
  /** The token of the service's configuration, when its hooks read it (ContactViewHooks.begin). */
  configToken?: symbol,
): ContactViewConsumer {
  const config = configToken === undefined ? () => undefined : Inject(configToken);

  @Controller()
  class ContactViewFactsConsumer {
    constructor(@Optional() @config private readonly config?: unknown) {}

    @EventPattern(view.types, transportId)
    async project(@Payload() record: DecodedRecord, @Ctx() rawContext: unknown): Promise<void> {
      const context = recordContext(rawContext);
      await view.apply(context.manager, [{ record, context, inSpan: (work) => work() }], this.config);
    }
  }

  @Injectable()
  class ContactViewChunk implements ChunkHandler {
    constructor(@Optional() @config private readonly config?: unknown) {}

    takes(record: DecodedRecord): boolean {
      return view.takes(record);
    }

    apply(records: ChunkRecord[], manager: EntityManager): Promise<void> {
      return view.apply(manager, records, this.config);
    }
  }

  @Module({})
  class ContactViewModule {}

  return {
    module: {
      module: ContactViewModule,
      controllers: [ContactViewFactsConsumer],
      providers: [ContactViewChunk],
      exports: [ContactViewChunk],
    },
    chunk: ContactViewChunk,
  };
}
