import { MESSAGING_FACT_TYPES, type TemplateCreateRequestedV1 } from '@cms/contracts';
import type { Answer, Decision } from '@cms/kafka';
import { Injectable } from '@nestjs/common';

import { MessagingException } from '../../decisions/messaging.exception';
import { TemplateEntity } from '../template.entity';
import { TemplateRepository } from '../template.repository';
import { templateFact, templateResource } from '../template.resource';
import { checkTemplateRules } from '../template-rules';

/** POST /api/v1/templates: `language` defaults to `en`, `track_links` to true. */
@Injectable()
export class CreateTemplateHandler {
  async handle(decision: Decision<TemplateCreateRequestedV1>): Promise<Answer> {
    const data = decision.data;
    const templates = new TemplateRepository(decision.manager);
    if (await templates.exists(data.template_id))
      throw MessagingException.idInUse('Template', data.template_id);
    const template = Object.assign(new TemplateEntity(), {
      id: data.template_id,
      workspaceId: decision.workspaceId,
      name: data.name,
      channel: data.channel,
      language: data.language ?? 'en',
      body: data.body ?? null,
      subject: data.subject ?? null,
      html: data.html ?? null,
      providerTemplate: data.provider_template
        ? {
            name: data.provider_template.name,
            language: data.provider_template.language,
            parameters: data.provider_template.parameters ?? [],
          }
        : null,
      trackLinks: data.track_links ?? true,
      createdAt: decision.atDate,
      updatedAt: decision.atDate,
    });
    await checkTemplateRules(decision, template);
    await templates.insert(template);
    decision.fact(MESSAGING_FACT_TYPES.templateCreated, String(template.id), () =>
      templateFact(template, decision.at),
    );
    return { status: 201, resource: templateResource(template) };
  }
}
