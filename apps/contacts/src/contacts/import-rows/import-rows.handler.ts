import {
  IMPORT_ROWS_FACT_TYPE,
  type ContactImportRowsDecidedV1,
  type ContactImportRowsRequestedV1,
  type ImportRowDecisionV1,
  type ImportRowSkipReason,
  type ImportRowV1,
} from '@cms/contracts';
import { PoisonRecordError, RequestRefusedError } from '@cms/kafka';
import { Inject, Injectable } from '@nestjs/common';

import { ContactsErrorCode, ContactsException } from '../../decisions/contacts.exception';
import type { Answer, ContactsDecision } from '../../decisions/decision';
import { TimeSlices } from '../../decisions/time-slices';
import { matchContact } from '../contact-identity';
import { ContactWriter } from '../contact-writer';
import { readImportRow } from './import-row';

function skipped(row: number, reason: ImportRowSkipReason): ImportRowDecisionV1 {
  return { row, outcome: 'skipped', contact_id: null, reason };
}

/**
 * `contact.import-rows.requested`, appended by the segments service's import worker (extensions §11):
 * each row of the chunk, in order, is matched like an event's contact (phone, then email) and left
 * unchanged, or creates a contact under the id reserved for it (source `import`, a contact.created
 * like every create) when the job says so and the plan's stored-contacts limit allows, or is skipped
 * with the reason. One contact.import-rows.decided then tells the job what every row came to. A
 * later row holding an identifier an earlier one created a contact with (in this chunk or an earlier
 * one) matches that contact. A chunk is decided once: the same chunk again decides nothing and
 * publishes nothing.
 */
@Injectable()
export class ImportRowsHandler {
  constructor(@Inject(ContactWriter) private readonly writer: ContactWriter) {}

  async handle(decision: ContactsDecision<ContactImportRowsRequestedV1>): Promise<Answer> {
    const { data, workspaceId, store } = decision;
    const fresh = await store.claimImportChunk({
      workspaceId,
      jobId: data.job_id,
      chunk: data.chunk,
      rows: data.rows.length,
      decidedAt: decision.atDate,
    });
    if (!fresh) return { status: 200 };
    const slices = new TimeSlices();
    const rows: ImportRowDecisionV1[] = [];
    for (const row of data.rows) {
      await slices.next();
      rows.push(await this.decideRow(decision, row));
    }
    const decided: ContactImportRowsDecidedV1 = { job_id: data.job_id, chunk: data.chunk, rows };
    decision.fact(IMPORT_ROWS_FACT_TYPE, String(data.job_id), decided);
    return { status: 200 };
  }

  private async decideRow(
    decision: ContactsDecision<ContactImportRowsRequestedV1>,
    row: ImportRowV1,
  ): Promise<ImportRowDecisionV1> {
    const reading = readImportRow(row);
    if ('reason' in reading) return skipped(row.row, reading.reason);
    const { changes } = reading;
    const holder = await matchContact(decision.store, decision.workspaceId, changes);
    if (holder !== null) return { row: row.row, outcome: 'matched', contact_id: holder.id, reason: null };
    const { create_new_entities: create, contact_limit: limit } = decision.data;
    if (!create) return skipped(row.row, 'no_match');
    const created = await decision.attempt(() =>
      this.writer.create(decision, row.contact_id, limit, changes, decision.at),
    );
    if (!(created instanceof RequestRefusedError)) {
      return { row: row.row, outcome: 'created', contact_id: created.contact.id, reason: null };
    }
    if (created instanceof ContactsException && created.code === ContactsErrorCode.ContactLimitReached) {
      return skipped(row.row, 'plan_limit');
    }
    // The id was reserved for this row by the gateway: taken, it is not the row that is wrong but the
    // job, and no reason a row can be skipped for says so.
    throw new PoisonRecordError(
      `row ${row.row} of import job ${decision.data.job_id} could not create contact ${row.contact_id}: ${created.message}`,
    );
  }
}
