import type { Decision } from '@cms/kafka';

import {
  MessagingErrorCode,
  MessagingException,
  type MessagingIssue,
} from '../decisions/messaging.exception';
import { checkTemplate } from './render/liquid-renderer';
import type { TemplateEntity } from './template.entity';
import { TemplateRepository } from './template.repository';

const ATTRIBUTES = '/data/attributes';

/** Which fields a template of its channel type may have (extensions §9, Templates). */
export function fieldIssues(template: TemplateEntity): MessagingIssue[] {
  const issues: MessagingIssue[] = [];
  const invalid = (field: string, detail: string): void => {
    issues.push({ code: MessagingErrorCode.InvalidField, detail, pointer: `${ATTRIBUTES}/${field}` });
  };
  if (template.providerTemplate !== null && template.channel !== 'whatsapp') {
    invalid('provider_template', 'provider_template is for whatsapp templates only');
  }
  if (template.body === null && template.providerTemplate === null) {
    invalid('body', 'body is required unless provider_template is given');
  }
  if (template.channel !== 'email') {
    if (template.subject !== null) invalid('subject', 'subject is for email templates only');
    if (template.html !== null) invalid('html', 'html is for email templates only');
  }
  return issues;
}

/**
 * A template as it will be stored must fit its channel type, parse as Liquid in every field (the line
 * and column of each fault), and have a name no other template of its workspace and type has.
 */
export async function checkTemplateRules(
  decision: Decision<unknown>,
  template: TemplateEntity,
): Promise<void> {
  const issues = fieldIssues(template);
  for (const { pointer, detail } of checkTemplate({
    body: template.body,
    subject: template.subject,
    html: template.html,
    provider_template: template.providerTemplate,
  })) {
    issues.push({ code: MessagingErrorCode.TemplateSyntax, detail, pointer });
  }
  if (issues.length > 0) throw new MessagingException(issues);
  const templates = new TemplateRepository(decision.manager);
  if (await templates.nameTaken(decision.workspaceId, template.channel, template.name, template.id)) {
    throw MessagingException.templateNameTaken(template.name, template.channel);
  }
}
