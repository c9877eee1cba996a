import { MESSAGING_FACT_TYPES, type TemplateUpdateRequestedV1 } from '@cms/contracts';
import type { Answer, Decision } from '@cms/kafka';
import { Injectable } from '@nestjs/common';

import { MessagingException } from '../../decisions/messaging.exception';
import { TemplateRepository } from '../template.repository';
import { templateFact, templateResource } from '../template.resource';
import { checkTemplateRules } from '../template-rules';

/**
 * PATCH /api/v1/templates/{id}: only the fields sent change (null clears body, subject, html and
 * provider_template); the template they make must meet every rule a new one meets.
 */
@Injectable()
export class UpdateTemplateHandler {
  async handle(decision: Decision<TemplateUpdateRequestedV1>): Promise<Answer> {
    const data = decision.data;
    const templates = new TemplateRepository(decision.manager);
    const template = await templates.findInWorkspace(decision.workspaceId, data.template_id);
    if (!template) throw MessagingException.templateNotFound(data.template_id);
    if (data.name !== undefined) template.name = data.name;
    if (data.channel !== undefined) template.channel = data.channel;
    if (data.language !== undefined) template.language = data.language;
    if (data.body !== undefined) template.body = data.body;
    if (data.subject !== undefined) template.subject = data.subject;
    if (data.html !== undefined) template.html = data.html;
    if (data.provider_template !== undefined) {
      template.providerTemplate =
        data.provider_template === null
          ? null
          : {
              name: data.provider_template.name,
              language: data.provider_template.language,
              parameters: data.provider_template.parameters ?? [],
            };
    }
    if (data.track_links !== undefined) template.trackLinks = data.track_links;
    await checkTemplateRules(decision, template);
    template.updatedAt = decision.atDate;
    await templates.save(template);
    decision.fact(MESSAGING_FACT_TYPES.templateUpdated, String(template.id), () =>
      templateFact(template, decision.at),
    );
    return { status: 200, resource: templateResource(template) };
  }
}
