import type { SuppressionDeleteRequestedV1 } from '@cms/contracts';
import type { Answer, Decision } from '@cms/kafka';
import { Injectable } from '@nestjs/common';

import { MessagingException } from '../../decisions/messaging.exception';
import { SuppressionList } from '../suppression-list';

/**
 * `DELETE /api/v1/suppressions/{id}`: the address may be messaged again from the next send on
 * (`suppression.removed`). An entry of another workspace, or none, is not found (404).
 */
@Injectable()
export class DeleteSuppressionHandler {
  async handle(decision: Decision<SuppressionDeleteRequestedV1>): Promise<Answer> {
    const id = decision.data.suppression_id;
    const list = new SuppressionList(decision);
    const entry = await list.byId(decision.workspaceId, id);
    if (entry === null) throw MessagingException.suppressionNotFound(id);
    await list.remove(entry);
    return { status: 204 };
  }
}
