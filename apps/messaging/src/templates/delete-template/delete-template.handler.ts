import { MESSAGING_FACT_TYPES, type TemplateDeleteRequestedV1 } from '@cms/contracts';
import type { Answer, Decision } from '@cms/kafka';
import { Injectable } from '@nestjs/common';

import { MessagingException } from '../../decisions/messaging.exception';
import { TemplateRepository } from '../template.repository';

/**
 * DELETE /api/v1/templates/{id}. A template used by a workflow or a notification cannot be deleted
 * (422, extensions §9); workflows and notifications do not exist yet, so that rule comes with them
 * (automations, broadcasts). Messages already made keep the template's name.
 */
@Injectable()
export class DeleteTemplateHandler {
  async handle(decision: Decision<TemplateDeleteRequestedV1>): Promise<Answer> {
    const { template_id: id } = decision.data;
    const templates = new TemplateRepository(decision.manager);
    if (!(await templates.findInWorkspace(decision.workspaceId, id))) {
      throw MessagingException.templateNotFound(id);
    }
    await templates.delete(id);
    decision.fact(MESSAGING_FACT_TYPES.templateDeleted, String(id), { id, at: decision.at });
    return { status: 204 };
  }
}
