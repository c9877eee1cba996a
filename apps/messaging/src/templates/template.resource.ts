import type { ChannelType } from '@cms/contracts';

import type { TemplateEntity } from './template.entity';

/** A template as the API answers it (extensions §9). */
export interface TemplateResource {
  [field: string]: unknown;
  id: number;
  name: string;
  channel: ChannelType;
  language: string;
  body: string | null;
  subject: string | null;
  html: string | null;
  provider_template: { name: string; language: string; parameters: string[] } | null;
  track_links: boolean;
  created_at: string;
  updated_at: string;
}

export function templateResource(template: TemplateEntity): TemplateResource {
  return {
    id: template.id,
    name: template.name,
    channel: template.channel,
    language: template.language,
    body: template.body,
    subject: template.subject,
    html: template.html,
    provider_template: template.providerTemplate,
    track_links: template.trackLinks,
    created_at: template.createdAt.toISOString(),
    updated_at: template.updatedAt.toISOString(),
  };
}

/** The data of template.created and template.updated. */
export function templateFact(template: TemplateEntity, at: string): Record<string, unknown> {
  return { template_id: template.id, name: template.name, channel: template.channel, at };
}
