import { Checkbox, JsonInput, NativeSelect, SimpleGrid, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';

import type { Schema } from '../../api';
import { ApiForm, parseJson, useSubmit } from '../../components/forms';

export type Template = Schema<'Template'>;
export type ChannelType = Template['channel'];
type Body = Schema<'CreateTemplateBody'>;

export const CHANNEL_TYPES: readonly ChannelType[] = [
  'whatsapp',
  'sms',
  'email',
  'rcs',
  'telegram',
  'messenger',
  'instagram',
  'browser_push',
];

const mono = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

/** The fields of a template (create, or the edit of one); the API's errors show at their fields. */
export function TemplateForm({
  template,
  submit,
  submitLabel,
  label,
  onSaved,
}: {
  template?: Template;
  submit(body: Body): Promise<unknown>;
  submitLabel: string;
  label: string;
  onSaved?(result: unknown): void;
}) {
  const [name, setName] = useState(template?.name ?? '');
  const [channel, setChannel] = useState<ChannelType>(template?.channel ?? 'sms');
  const [language, setLanguage] = useState(template?.language ?? 'en');
  const [body, setBody] = useState(template?.body ?? '');
  const [subject, setSubject] = useState(template?.subject ?? '');
  const [html, setHtml] = useState(template?.html ?? '');
  const [providerTemplate, setProviderTemplate] = useState(
    template?.provider_template ? JSON.stringify(template.provider_template, null, 2) : '',
  );
  const [trackLinks, setTrackLinks] = useState(template?.track_links ?? true);
  const save = useSubmit(
    () => {
      const provider = parseJson(providerTemplate, 'Provider template') as Body['provider_template'];
      return submit({
        name,
        channel,
        ...(language ? { language } : {}),
        ...(body !== '' ? { body } : {}),
        ...(channel === 'email' && subject !== '' ? { subject } : {}),
        ...(channel === 'email' && html !== '' ? { html } : {}),
        ...(channel === 'whatsapp' && provider ? { provider_template: provider } : {}),
        track_links: trackLinks,
      });
    },
    {
      invalidates: [['templates']],
      onSuccess: (result) => {
        if (!template) {
          setName('');
          setBody('');
          setSubject('');
          setHtml('');
          setProviderTemplate('');
        }
        onSaved?.(result);
      },
    },
  );
  return (
    <ApiForm
      label={label}
      onSubmit={() => save.mutate(undefined)}
      error={save.error}
      shown={['name', 'channel', 'language', 'body', 'subject', 'html', 'provider_template', 'track_links']}
      submitLabel={submitLabel}
      pending={save.isPending}
    >
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
        <TextInput
          label="Name"
          required
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={save.problems.field('name')}
        />
        <NativeSelect
          label="Channel"
          required
          data={CHANNEL_TYPES.map((value) => ({ value, label: value }))}
          value={channel}
          onChange={(event) => setChannel(event.currentTarget.value as ChannelType)}
          error={save.problems.field('channel')}
        />
        <TextInput
          label="Language"
          description="BCP 47, default en"
          value={language}
          onChange={(event) => setLanguage(event.currentTarget.value)}
          error={save.problems.field('language')}
        />
      </SimpleGrid>
      {channel === 'email' ? (
        <TextInput
          label="Subject"
          value={subject}
          onChange={(event) => setSubject(event.currentTarget.value)}
          error={save.problems.field('subject')}
          styles={mono}
        />
      ) : null}
      <Textarea
        label="Body"
        description="Liquid: {{ contact.name }}, {{ contact.data.plan }}, {{ event.data.total }}, {{ vars.code | default: 'x' }}"
        required={channel !== 'whatsapp'}
        autosize
        minRows={4}
        maxRows={20}
        value={body}
        onChange={(event) => setBody(event.currentTarget.value)}
        error={save.problems.field('body')}
        styles={mono}
        spellCheck={false}
      />
      {channel === 'email' ? (
        <Textarea
          label="HTML"
          autosize
          minRows={3}
          maxRows={20}
          value={html}
          onChange={(event) => setHtml(event.currentTarget.value)}
          error={save.problems.field('html')}
          styles={mono}
          spellCheck={false}
        />
      ) : null}
      {channel === 'whatsapp' ? (
        <JsonInput
          label="Provider template (JSON)"
          description='An approved WhatsApp template: {"name", "language", "parameters": [...]}'
          autosize
          minRows={2}
          value={providerTemplate}
          onChange={setProviderTemplate}
          error={save.problems.field('provider_template')}
        />
      ) : null}
      <Checkbox
        label="Track links"
        checked={trackLinks}
        onChange={(event) => setTrackLinks(event.currentTarget.checked)}
        error={save.problems.field('track_links')}
      />
    </ApiForm>
  );
}
