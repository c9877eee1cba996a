import {
  IMPORT_ROWS_FACT_TYPE,
  IMPORT_ROWS_REFUSED_FACT_TYPE,
  type ContactImportRowsDecidedV1,
  type ContactImportRowsRefusedV1,
  type DecodedRecord,
} from '@cms/contracts';
import { recordContext } from '@cms/kafka';
import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';

import { SEGMENTS_CONFIG, type SegmentsConfig } from '../../config';
import { CONTACTS_TRANSPORT } from '../../transports';
import { ImportRowsApplier, type ImportChunkAnswer } from './import-rows.applier';

/**
 * The contacts consumer's import facts: the rows the contacts service decided for a job's chunk, or
 * its refusal of a chunk it could never decide.
 */
@Controller()
export class ImportRowsDecidedConsumer {
  constructor(
    @Inject(SEGMENTS_CONFIG) private readonly config: SegmentsConfig,
    @Inject(ImportRowsApplier) private readonly applier: ImportRowsApplier,
  ) {}

  @EventPattern(IMPORT_ROWS_FACT_TYPE, CONTACTS_TRANSPORT)
  decided(
    @Payload() record: DecodedRecord<ContactImportRowsDecidedV1>,
    @Ctx() rawContext: unknown,
  ): Promise<void> {
    return this.apply(record, rawContext);
  }

  @EventPattern(IMPORT_ROWS_REFUSED_FACT_TYPE, CONTACTS_TRANSPORT)
  refused(
    @Payload() record: DecodedRecord<ContactImportRowsRefusedV1>,
    @Ctx() rawContext: unknown,
  ): Promise<void> {
    return this.apply(record, rawContext);
  }

  private async apply(record: ImportChunkAnswer, rawContext: unknown): Promise<void> {
    const context = recordContext(rawContext);
    // Below the replay horizon `emit` drops them: they were published by an earlier life of the projection.
    for (const fact of await this.applier.apply(context.manager, [record])) {
      context.emit(this.config.topics.segments, fact);
    }
  }
}
