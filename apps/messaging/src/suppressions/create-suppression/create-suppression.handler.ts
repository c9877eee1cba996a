import type { SuppressionCreateRequestedV1 } from '@cms/contracts';
import type { Answer, Decision } from '@cms/kafka';
import { Injectable } from '@nestjs/common';

import { MessagingException } from '../../decisions/messaging.exception';
import { normaliseAddress, suppressionId } from '../suppression-address';
import { SuppressionList } from '../suppression-list';
import { suppressionResource } from '../suppression.resource';

/**
 * `POST /api/v1/suppressions`: a manual entry (reason `manual`, source `api`) for the address,
 * normalised for the channel type (422 at the address when it is not one), published as
 * `suppression.added`. An address already on the list keeps its entry, which is answered 200: asking
 * twice changes nothing and publishes nothing.
 */
@Injectable()
export class CreateSuppressionHandler {
  async handle(decision: Decision<SuppressionCreateRequestedV1>): Promise<Answer> {
    const { channel, address: raw } = decision.data;
    const address = normaliseAddress(channel, raw);
    if (!address.ok) {
      throw MessagingException.invalidFields([
        { pointer: '/data/attributes/address', detail: address.detail },
      ]);
    }
    const { added, entry } = await new SuppressionList(decision).add({
      id: suppressionId(decision.record.id, 'manual'),
      workspaceId: decision.workspaceId,
      channel,
      address: address.address,
      reason: 'manual',
      source: 'api',
      createdAt: decision.atDate,
    });
    return { status: added ? 201 : 200, resource: { ...suppressionResource(entry) } };
  }
}
