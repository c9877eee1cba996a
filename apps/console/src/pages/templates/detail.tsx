import { Alert, Code, Group, JsonInput, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';

import { ok } from '../../api';
import {
  ConfirmButton,
  ErrorAlert,
  Facts,
  PageHeader,
  QueryState,
  Section,
  Time,
  To,
} from '../../components/ui';
import { formProblems } from '../../problems';
import { Can, useApi } from '../../session';
import { TemplateForm, type Template } from './form';

/** One template: edit (PATCH) with its Liquid body, a render preview, delete. */
export function TemplatePage() {
  const api = useApi();
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const template = useQuery({
    queryKey: ['templates', 'one', id],
    queryFn: () => ok(api.GET('/api/v1/templates/{id}', { params: { path: { id } } })),
  });
  return (
    <QueryState isPending={template.isPending} error={template.error}>
      {() => {
        const data = template.data!.data;
        return (
          <>
            <PageHeader
              title={`Template ${data.name}`}
              description={`${data.channel} · ${data.language}`}
              actions={
                <Can permission="delete">
                  <ConfirmButton
                    label="Delete template"
                    title={`Delete the template ${data.name}?`}
                    message="Refused while a workflow, a notification or a bot sends it."
                    action={() => ok(api.DELETE('/api/v1/templates/{id}', { params: { path: { id } } }))}
                    invalidates={[['templates']]}
                    onDone={() => void navigate('/templates')}
                  />
                </Can>
              }
            />
            <To to="/templates">All templates</To>
            <Section title="Details">
              <Facts
                items={[
                  ['Id', data.id],
                  ['Channel', data.channel],
                  ['Track links', data.track_links ? 'yes' : 'no'],
                  ['Created', <Time key="c" at={data.created_at} />],
                  ['Updated', <Time key="u" at={data.updated_at} />],
                ]}
              />
            </Section>
            <Can permission="update">
              <Section title="Edit template">
                <TemplateForm
                  key={data.updated_at}
                  template={data}
                  label="Edit template"
                  submitLabel="Save template"
                  submit={(body) =>
                    ok(api.PATCH('/api/v1/templates/{id}', { params: { path: { id } }, body }))
                  }
                />
              </Section>
            </Can>
            <Section title="Render preview">
              <RenderPreview template={data} />
            </Section>
          </>
        );
      }}
    </QueryState>
  );
}

/** Renders the saved template for a contact and sample variables as a send would; re-asked as they change. */
function RenderPreview({ template }: { template: Template }) {
  const api = useApi();
  const [contactId, setContactId] = useState('');
  const [variables, setVariables] = useState('{}');
  const [event, setEvent] = useState('');
  const [input] = useDebouncedValue({ contactId, variables, event }, 600);
  let parseError: string | null = null;
  let body: { contact_id?: number; variables?: Record<string, unknown>; event?: Record<string, unknown> } =
    {};
  try {
    const vars = input.variables.trim()
      ? (JSON.parse(input.variables) as Record<string, unknown>)
      : undefined;
    const ev = input.event.trim() ? (JSON.parse(input.event) as Record<string, unknown>) : undefined;
    const contact = input.contactId.trim();
    body = {
      ...(contact
        ? { contact_id: /^\d+$/.test(contact) ? Number(contact) : (contact as unknown as number) }
        : {}),
      ...(vars !== undefined ? { variables: vars } : {}),
      ...(ev !== undefined ? { event: ev } : {}),
    };
  } catch (error) {
    parseError = error instanceof Error ? error.message : String(error);
  }
  const rendered = useQuery({
    queryKey: ['templates', 'render', template.id, template.updated_at, body],
    queryFn: () =>
      ok(api.POST('/api/v1/templates/{id}/render', { params: { path: { id: template.id } }, body })),
    enabled: parseError === null,
    retry: false,
  });
  const problems = formProblems(rendered.error);
  const shown = ['contact_id', 'variables', 'event'];
  const others = rendered.error && problems.unclaimed(shown).length > 0;
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        Renders the saved template (save your edits first); nothing is sent or recorded.
      </Text>
      <Group align="flex-start" wrap="wrap" gap="xs">
        <TextInput
          label="Contact id"
          description="Optional: renders {{ contact.… }} for this contact"
          inputMode="numeric"
          value={contactId}
          onChange={(change) => setContactId(change.currentTarget.value)}
          error={problems.field('contact_id')}
        />
      </Group>
      <JsonInput
        label="Variables (JSON object, as vars)"
        autosize
        minRows={2}
        value={variables}
        onChange={setVariables}
        error={problems.field('variables')}
      />
      <JsonInput
        label="Event (JSON object, optional)"
        autosize
        minRows={2}
        value={event}
        onChange={setEvent}
        error={problems.field('event')}
      />
      {parseError ? (
        <Alert color="gray" title="Not valid JSON" role="alert">
          {parseError}
        </Alert>
      ) : null}
      {others ? <ErrorAlert error={rendered.error} title="The template does not render" /> : null}
      {rendered.isFetching ? (
        <Text size="sm" c="dimmed" role="status">
          Rendering…
        </Text>
      ) : null}
      {rendered.data && !rendered.error ? (
        <Stack gap={4} aria-label="Rendered output" component="section">
          {rendered.data.data.subject !== null ? (
            <Text size="sm">
              <strong>Subject:</strong> {rendered.data.data.subject}
            </Text>
          ) : null}
          <Text size="sm" fw={600}>
            Rendered body
          </Text>
          <Code block tabIndex={0} aria-label="Rendered text" style={{ whiteSpace: 'pre-wrap' }}>
            {rendered.data.data.body ?? '—'}
          </Code>
          {rendered.data.data.html !== null ? (
            <>
              <Text size="sm" fw={600}>
                Rendered HTML
              </Text>
              <Code block tabIndex={0} aria-label="Rendered HTML" style={{ whiteSpace: 'pre-wrap' }}>
                {rendered.data.data.html}
              </Code>
            </>
          ) : null}
        </Stack>
      ) : null}
    </Stack>
  );
}
