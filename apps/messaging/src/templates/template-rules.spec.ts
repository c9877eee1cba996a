import type { ChannelType } from '@cms/contracts';

import type { TemplateEntity } from './template.entity';
import { fieldIssues } from './template-rules';

function template(channel: ChannelType, fields: Partial<TemplateEntity> = {}): TemplateEntity {
  return {
    id: 1,
    workspaceId: 1,
    name: 'T',
    channel,
    language: 'en',
    body: 'Hi',
    subject: null,
    html: null,
    providerTemplate: null,
    trackLinks: true,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    ...fields,
  };
}

const pointersOf = (entity: TemplateEntity): Array<string | undefined> =>
  fieldIssues(entity).map((issue) => issue.pointer);

describe('the fields a template of each type may have', () => {
  it('takes subject and html on email only', () => {
    expect(pointersOf(template('email', { subject: 'S', html: '<p/>' }))).toEqual([]);
    expect(pointersOf(template('sms', { subject: 'S', html: '<p/>' }))).toEqual([
      '/data/attributes/subject',
      '/data/attributes/html',
    ]);
  });

  it('takes a provider template on whatsapp only, where it stands in for the body', () => {
    const providerTemplate = { name: 'order', language: 'en', parameters: [] };
    expect(pointersOf(template('whatsapp', { body: null, providerTemplate }))).toEqual([]);
    expect(pointersOf(template('telegram', { providerTemplate }))).toEqual([
      '/data/attributes/provider_template',
    ]);
    expect(pointersOf(template('whatsapp', { body: null }))).toEqual(['/data/attributes/body']);
  });
});
