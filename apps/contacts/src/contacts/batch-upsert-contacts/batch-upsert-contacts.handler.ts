import { UpsertContactBody, type ContactBatchUpsertRequestedV1, type OutcomeError } from '@cms/contracts';
import { validationErrorsToJsonApi } from '@cms/http';
import { Inject, Injectable } from '@nestjs/common';
import { validateSync } from 'class-validator';

import { RequestRefusedError } from '@cms/kafka';
import type { Answer, ContactsDecision } from '../../decisions/decision';
import { TimeSlices } from '../../decisions/time-slices';
import { batchContactResource } from '../contact.resource';
import { UpsertContactHandler } from '../upsert-contact/upsert-contact.handler';

export type BatchElementResult =
  | { index: number; status: 200 | 201; contact: Record<string, unknown> }
  | { index: number; status: number; errors: OutcomeError[] };

/** Checked exactly as the gateway checks a single upsert body: unknown fields are refused. */
function elementErrors(body: UpsertContactBody, pointerPrefix: string): OutcomeError[] {
  const errors = validateSync(body, { whitelist: true, forbidNonWhitelisted: true });
  return validationErrorsToJsonApi(errors, { pointerPrefix });
}

/**
 * POST /api/v1/contacts/batch: every element is an upsert of its own, applied in order; the valid
 * ones are applied and the others fail alone. Always 200, with one result per element (its contact
 * without `data` and `tags`: see batchContactResource).
 */
@Injectable()
export class BatchUpsertContactsHandler {
  constructor(@Inject(UpsertContactHandler) private readonly upsert: UpsertContactHandler) {}

  async handle(decision: ContactsDecision<ContactBatchUpsertRequestedV1>): Promise<Answer> {
    const { contacts, contact_limit: limit } = decision.data;
    const results: BatchElementResult[] = [];
    const slices = new TimeSlices();
    for (const [index, element] of contacts.entries()) {
      await slices.next();
      const { contact_id: candidateId, ...fields } = element;
      const pointerPrefix = `/data/attributes/contacts/${index}`;
      // The record's decoding already made a copy of every element (class-transformer's, which drops
      // `__proto__` and `constructor` members at every depth): a shallow instance over it validates the
      // same without copying the element's data once more.
      const body = Object.assign(new UpsertContactBody(), fields);
      const errors = elementErrors(body, pointerPrefix);
      if (errors.length > 0) {
        results.push({ index, status: 422, errors });
        continue;
      }
      const outcome = await decision.attempt(() =>
        this.upsert.upsert(decision, body, candidateId, limit, pointerPrefix),
      );
      if (outcome instanceof RequestRefusedError) {
        results.push({ index, status: outcome.status, errors: outcome.toErrors() });
      } else {
        results.push({
          index,
          status: outcome.created ? 201 : 200,
          contact: batchContactResource(outcome.view),
        });
      }
    }
    const count = (status: number) => results.filter((result) => result.status === status).length;
    return {
      status: 200,
      resource: {
        results,
        summary: {
          created: count(201),
          updated: count(200),
          failed: results.length - count(201) - count(200),
        },
      },
    };
  }
}
