import { Alert, Button, Group, JsonInput, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';

import { ok, type Schema } from '../../api';
import { ApiForm, useSubmit } from '../../components/forms';
import {
  ConfirmButton,
  ErrorAlert,
  Facts,
  PageHeader,
  QueryState,
  ResourceTable,
  Section,
  Time,
  To,
} from '../../components/ui';
import { formProblems } from '../../problems';
import { Can, useApi, useCan } from '../../session';
import { FilterBuilder, type Choice } from './builder';
import { CHANNELS, type FilterNode } from './filter';

type Audience = Schema<'Audience'>;
type PreviewContact = Schema<'AudiencePreviewContact'>;

function parseIds(text: string): Array<number | string> {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) => (/^\d+$/.test(item) ? Number(item) : item));
}

/** The tags and the other audiences the builder offers to choose from. */
function useChoices(exceptId?: number): { tags: Choice[]; audiences: Choice[] } {
  const api = useApi();
  const tags = useQuery({
    queryKey: ['tags', 'choices'],
    queryFn: () => ok(api.GET('/api/v1/tags', { params: { query: { per_page: 100 } } })),
  });
  const audiences = useQuery({
    queryKey: ['audiences', 'choices'],
    queryFn: () => ok(api.GET('/api/v1/audiences', { params: { query: { per_page: 100 } } })),
  });
  return {
    tags: (tags.data?.data ?? []).map((tag) => ({ id: tag.id, name: tag.name })),
    audiences: (audiences.data?.data ?? [])
      .filter((audience) => audience.id !== exceptId)
      .map((audience) => ({ id: audience.id, name: audience.name })),
  };
}

export function NewAudiencePage() {
  return (
    <>
      <PageHeader title="New audience" description="Contacts chosen by a filter, and by id." />
      <To to="/audiences">All audiences</To>
      <AudienceEditor />
    </>
  );
}

export function AudiencePage() {
  const api = useApi();
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const audience = useQuery({
    queryKey: ['audiences', 'one', id],
    queryFn: () => ok(api.GET('/api/v1/audiences/{id}', { params: { path: { id } } })),
  });
  return (
    <QueryState isPending={audience.isPending} error={audience.error}>
      {() => {
        const data = audience.data!.data;
        return (
          <>
            <PageHeader
              title={`Audience ${data.name}`}
              description={`${data.size} members now · source ${data.source}`}
              actions={
                <Can permission="delete">
                  <ConfirmButton
                    label="Delete audience"
                    title={`Delete the audience ${data.name}?`}
                    message="Refused while a workflow, a notification or another audience uses it."
                    action={() => ok(api.DELETE('/api/v1/audiences/{id}', { params: { path: { id } } }))}
                    invalidates={[['audiences']]}
                    onDone={() => void navigate('/audiences')}
                  />
                </Can>
              }
            />
            <To to="/audiences">All audiences</To>
            <Section title="Details">
              <Facts
                items={[
                  ['Id', data.id],
                  ['Source', data.source],
                  ['Size', data.size],
                  ['Created', <Time key="c" at={data.created_at} />],
                  ['Updated', <Time key="u" at={data.updated_at} />],
                ]}
              />
            </Section>
            <AudienceEditor key={data.updated_at} audience={data} />
          </>
        );
      }}
    </QueryState>
  );
}

/** The filter builder, the raw JSON, the ids, the live preview and the save of an audience. */
function AudienceEditor({ audience }: { audience?: Audience }) {
  const api = useApi();
  const navigate = useNavigate();
  const canWrite = useCan(audience ? 'update' : 'create');
  const isImport = audience?.source === 'import';
  const [name, setName] = useState(audience?.name ?? '');
  const [criteria, setCriteria] = useState<FilterNode[]>((audience?.filter_criteria ?? []) as FilterNode[]);
  const [include, setInclude] = useState((audience?.include_contact_ids ?? []).join(', '));
  const [exclude, setExclude] = useState((audience?.exclude_contact_ids ?? []).join(', '));
  const [jsonText, setJsonText] = useState(JSON.stringify(criteria, null, 2));
  const [jsonError, setJsonError] = useState<string | null>(null);
  const choices = useChoices(audience?.id);

  const changeCriteria = (next: FilterNode[]) => {
    setCriteria(next);
    setJsonText(JSON.stringify(next, null, 2));
  };

  const definition = {
    ...(isImport ? {} : { filter_criteria: criteria }),
    include_contact_ids: parseIds(include) as number[],
    exclude_contact_ids: parseIds(exclude) as number[],
  };
  const [debounced] = useDebouncedValue(definition, 600);
  const preview = useQuery({
    queryKey: ['audiences', 'preview', debounced],
    queryFn: () => ok(api.POST('/api/v1/audience/preview', { body: { ...debounced, limit: 10 } })),
    enabled: !isImport,
    retry: false,
    placeholderData: keepPreviousData,
  });

  const save = useSubmit(
    () => {
      const body = { name, ...definition };
      return audience
        ? ok(api.PATCH('/api/v1/audiences/{id}', { params: { path: { id: audience.id } }, body }))
        : ok(api.POST('/api/v1/audiences', { body }));
    },
    {
      invalidates: [['audiences']],
      onSuccess: (result) => {
        if (!audience) void navigate(`/audiences/${result.data.id}`);
      },
    },
  );
  // The builder shows the save's problems after a save, and the live preview's otherwise.
  const problems = save.error ? save.problems : formProblems(preview.error);

  const applyJson = () => {
    try {
      const parsed = JSON.parse(jsonText) as unknown;
      if (!Array.isArray(parsed))
        throw new Error('The filter must be a JSON array of conditions and groups.');
      setJsonError(null);
      changeCriteria(parsed as FilterNode[]);
    } catch (error) {
      setJsonError(error instanceof Error ? error.message : String(error));
    }
  };

  const form = (
    <Stack gap="sm">
      <TextInput
        label="Name"
        required
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={save.problems.field('name')}
        readOnly={!canWrite}
        maw={360}
      />
      {isImport ? (
        <Alert color="gray" title="An import audience">
          Its members are the contacts its import added; it takes no filter. Include and exclude contacts
          below.
        </Alert>
      ) : (
        <Section title="Filter">
          <FilterBuilder
            criteria={criteria}
            onChange={changeCriteria}
            problems={problems}
            tags={choices.tags}
            audiences={choices.audiences}
          />
        </Section>
      )}
      <Group align="flex-start" wrap="wrap" gap="xs">
        <TextInput
          label="Include contact ids"
          description="Comma-separated: members whatever the filter says"
          value={include}
          onChange={(event) => setInclude(event.currentTarget.value)}
          error={problems.field('include_contact_ids')}
        />
        <TextInput
          label="Exclude contact ids"
          description="Comma-separated: never members"
          value={exclude}
          onChange={(event) => setExclude(event.currentTarget.value)}
          error={problems.field('exclude_contact_ids')}
        />
      </Group>
      {!isImport ? (
        <Section title="Filter as JSON">
          <JsonInput
            label="Filter criteria (JSON)"
            autosize
            minRows={3}
            maxRows={24}
            value={jsonText}
            onChange={setJsonText}
            error={jsonError ?? problems.field('filter_criteria')}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          <Group gap="xs">
            <Button variant="default" size="sm" onClick={applyJson}>
              Apply JSON
            </Button>
          </Group>
        </Section>
      ) : null}
    </Stack>
  );

  return (
    <>
      <Section title="Live preview">
        {isImport ? (
          <Text size="sm" role="status">
            {audience?.size ?? 0} contacts match (imported members, as of the last read)
          </Text>
        ) : (
          <Preview preview={preview} />
        )}
      </Section>
      <Section title={audience ? 'Edit audience' : 'Definition'}>
        {canWrite ? (
          <ApiForm
            label={audience ? 'Edit audience' : 'New audience'}
            onSubmit={() => save.mutate(undefined)}
            error={save.error}
            shown={['name', 'filter_criteria', 'include_contact_ids', 'exclude_contact_ids']}
            submitLabel="Save audience"
            pending={save.isPending}
          >
            {form}
          </ApiForm>
        ) : (
          form
        )}
      </Section>
    </>
  );
}

function Preview({
  preview,
}: {
  preview: {
    data?: { data: Schema<'AudiencePreview'> };
    error: unknown;
    isFetching: boolean;
    isPending: boolean;
  };
}) {
  const data = preview.data?.data;
  return (
    <Stack gap="xs">
      <Group gap="sm" wrap="wrap">
        <Text size="lg" fw={700} role="status" aria-live="polite">
          {data ? `${data.count} contacts match` : preview.isPending ? 'Counting…' : 'No count yet'}
        </Text>
        {preview.isFetching ? (
          <Text size="sm" c="dimmed">
            updating…
          </Text>
        ) : null}
        {data ? (
          <Text size="xs" c="dimmed">
            as of <Time at={data.computed_at} />
          </Text>
        ) : null}
      </Group>
      {preview.error ? (
        <ErrorAlert error={preview.error} title="The preview refused this definition" />
      ) : null}
      {data ? (
        <>
          <ResourceTable<{ channel: string; count: number }>
            caption="Reachable with marketing, per channel"
            rows={CHANNELS.map((channel) => ({ channel, count: data.reachable[channel] }))}
            rowKey={(row) => row.channel}
            columns={[
              { header: 'Channel', cell: (row) => row.channel },
              { header: 'Reachable', cell: (row) => row.count },
            ]}
          />
          <ResourceTable<PreviewContact>
            caption="First matching contacts"
            rows={data.sample}
            rowKey={(contact) => contact.id}
            empty="No contact matches."
            columns={[
              {
                header: 'Contact',
                cell: (contact) => (
                  <To to={`/contacts/${contact.id}`}>{contact.name ?? `Contact ${contact.id}`}</To>
                ),
              },
              { header: 'Phone', cell: (contact) => contact.phone ?? '—' },
              { header: 'Email', cell: (contact) => contact.email ?? '—' },
              { header: 'Tags', cell: (contact) => contact.tags.map((tag) => tag.name).join(', ') || '—' },
            ]}
          />
        </>
      ) : null}
    </Stack>
  );
}
