import {
  Alert,
  Button,
  Checkbox,
  Input,
  Group,
  NativeSelect,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';

import { ApiError, consoleFetch, ok, type Problem, type Schema } from '../../api';
import { ApiForm, useSubmit } from '../../components/forms';
import { ErrorAlert, Facts, PageHeader, ResourceTable, Section, Time, To } from '../../components/ui';
import { formProblems } from '../../problems';
import { Can, useApi } from '../../session';
import { StatusBadge as Status } from '../../components/ui';

type Upload = Schema<'ImportUpload'>;
type Mapping = Schema<'ImportMappingBody'>;
type Target = keyof Mapping;
type Job = Schema<'ImportJob'>;

/** The contact fields a column may fill (the process body's `mapping`). */
const TARGETS: ReadonlyArray<{ value: Target; label: string }> = [
  { value: 'phone', label: 'Phone' },
  { value: 'email', label: 'Email' },
  { value: 'name', label: 'Name' },
];

const KEY_STORAGE = 'cms.console.api-key';

/** `POST /api/v1/audience-import/preview`: the file in the multipart part `file`. */
async function uploadCsv(file: File): Promise<Upload> {
  const form = new FormData();
  form.append('file', file, file.name);
  const key = window.sessionStorage.getItem(KEY_STORAGE) ?? '';
  const response = await consoleFetch(
    new Request(new URL('/api/v1/audience-import/preview', window.location.origin), {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}` },
      body: form,
    }),
  );
  const body = (await response.json().catch(() => undefined)) as
    { data?: Upload; errors?: Problem[] } | undefined;
  if (!response.ok || !body?.data) {
    throw new ApiError(
      response.status,
      Array.isArray(body?.errors)
        ? body.errors
        : [{ status: String(response.status), title: response.statusText, detail: '' }],
    );
  }
  return body.data;
}

/** A first guess of the target of a column from its header. */
function guess(column: string): Target | '' {
  const name = column.toLowerCase();
  if (/phone|mobile|msisdn|tel/.test(name)) return 'phone';
  if (/mail/.test(name)) return 'email';
  if (/name/.test(name)) return 'name';
  return '';
}

export function ImportsPage() {
  const [params, setParams] = useSearchParams();
  const jobId = Number(params.get('job')) || null;
  return (
    <>
      <PageHeader
        title="Imports"
        description="Upload a CSV of contacts, map its columns, and import it into a new audience."
      />
      <Can permission="create">
        <ImportFlow onQueued={(id) => setParams({ job: String(id) })} />
      </Can>
      {jobId ? (
        <Section title={`Import job ${jobId}`}>
          <JobProgress id={jobId} />
        </Section>
      ) : null}
    </>
  );
}

function ImportFlow({ onQueued }: { onQueued(jobId: number): void }) {
  const api = useApi();
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [upload, setUpload] = useState<Upload | null>(null);
  const [columns, setColumns] = useState<Record<string, Target | ''>>({});
  const [audienceName, setAudienceName] = useState('');
  const [createNew, setCreateNew] = useState(true);

  const send = useMutation({
    mutationFn: uploadCsv,
    onSuccess: (result) => {
      setUpload(result);
      setColumns(Object.fromEntries(result.columns.map((column) => [column, guess(column)])));
      if (!audienceName && file) setAudienceName(file.name.replace(/\.[^.]+$/, ''));
    },
  });

  const mapping: Mapping = {};
  for (const [column, target] of Object.entries(columns)) if (target) mapping[target] = column;

  const process = useSubmit(
    () =>
      ok(
        api.POST('/api/v1/audience-import/process', {
          body: {
            path: upload!.path,
            mapping,
            audience_name: audienceName,
            create_new_entities: createNew,
          },
        }),
      ),
    { invalidates: [['audiences']], onSuccess: (result) => onQueued(result.data.job_id) },
  );

  const setTarget = (column: string, target: Target | '') => {
    // A target takes one column: choosing it for this column frees it from any other.
    const next: Record<string, Target | ''> = {};
    for (const [other, current] of Object.entries(columns))
      next[other] = other === column ? target : current === target && target !== '' ? '' : current;
    setColumns(next);
  };

  return (
    <>
      <Section title="1. Upload a CSV">
        <form
          aria-label="Upload a CSV"
          onSubmit={(event) => {
            event.preventDefault();
            if (file) send.mutate(file);
          }}
        >
          <Stack gap="xs">
            <Input.Wrapper
              label="CSV file"
              description="UTF-8, comma, semicolon or tab separated, with a header row"
              id={fileId}
              error={formProblems(send.error).field('file')}
            >
              <input
                id={fileId}
                type="file"
                accept=".csv,text/csv,text/plain"
                aria-describedby={`${fileId}-description`}
                style={{ display: 'block', marginTop: 4, maxWidth: '100%' }}
                onChange={(event) => {
                  setFile(event.currentTarget.files?.[0] ?? null);
                  setUpload(null);
                }}
              />
            </Input.Wrapper>
            {send.error && !formProblems(send.error).field('file') ? (
              <ErrorAlert error={send.error} title="The file was refused" />
            ) : null}
            <Group>
              <Button type="submit" loading={send.isPending} disabled={!file}>
                Upload and preview
              </Button>
            </Group>
          </Stack>
        </form>
      </Section>
      {upload ? (
        <>
          <Section title="2. Preview">
            <Facts
              items={[
                ['Rows', upload.row_count],
                ['Columns', upload.columns.join(', ')],
                ['Separator', upload.delimiter === '\t' ? 'tab' : upload.delimiter],
              ]}
            />
            <ResourceTable<Record<string, string>>
              caption="First rows of the file"
              rows={upload.sample_rows}
              rowKey={(row) => upload.sample_rows.indexOf(row)}
              columns={upload.columns.map((column) => ({ header: column, cell: (row) => row[column] ?? '' }))}
            />
          </Section>
          <Section title="3. Map the columns and import">
            <ApiForm
              label="Map the columns and import"
              onSubmit={() => process.mutate(undefined)}
              error={process.error}
              shown={['mapping', 'audience_name', 'create_new_entities', 'path']}
              submitLabel="Start import"
              pending={process.isPending}
            >
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
                {upload.columns.map((column) => (
                  <NativeSelect
                    key={column}
                    label={`Column ${column}`}
                    data={[{ value: '', label: 'Do not import' }, ...TARGETS]}
                    value={columns[column] ?? ''}
                    onChange={(event) => setTarget(column, event.currentTarget.value as Target | '')}
                    error={
                      (Object.entries(mapping) as Array<[Target, string]>)
                        .filter(([, mapped]) => mapped === column)
                        .map(([target]) => process.problems.field(`mapping.${target}`))
                        .filter(Boolean)
                        .join(' ') || undefined
                    }
                  />
                ))}
              </SimpleGrid>
              {process.problems.all
                .filter((entry) => entry.field === 'mapping' || entry.field === 'path')
                .map((entry, index) => (
                  <Text key={index} size="sm" c="red.9" role="alert">
                    {entry.field}: {entry.message}
                  </Text>
                ))}
              <Text size="sm" c="dimmed">
                Rows are matched by phone, then email: map at least one of them.
              </Text>
              <TextInput
                label="Audience name"
                required
                value={audienceName}
                onChange={(event) => setAudienceName(event.currentTarget.value)}
                error={process.problems.field('audience_name')}
                maw={360}
              />
              <Checkbox
                label="Create contacts for rows that match none"
                checked={createNew}
                onChange={(event) => setCreateNew(event.currentTarget.checked)}
                error={process.problems.field('create_new_entities')}
              />
            </ApiForm>
          </Section>
        </>
      ) : null}
    </>
  );
}

const DONE: ReadonlyArray<Job['status']> = ['completed', 'failed'];

/** The progress of an import job, polled every 2 s until it ends. */
function JobProgress({ id }: { id: number }) {
  const api = useApi();
  const job = useQuery({
    queryKey: ['imports', 'job', id],
    queryFn: () => ok(api.GET('/api/v1/audience-import/jobs/{id}', { params: { path: { id } } })),
    refetchInterval: (query) => {
      const status = query.state.data?.data.status;
      return status && DONE.includes(status) ? false : 2000;
    },
  });
  if (job.error) return <ErrorAlert error={job.error} />;
  const data = job.data?.data;
  if (!data) return <Text size="sm">Reading the job…</Text>;
  const percent = data.rows_total > 0 ? Math.round((data.rows_processed / data.rows_total) * 100) : 0;
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Status status={data.status} />
        <Text size="sm" role="status" aria-live="polite">
          {data.rows_processed} of {data.rows_total} rows processed ({percent}%)
        </Text>
      </Group>
      <Progress
        value={data.status === 'completed' ? 100 : percent}
        aria-label="Import progress"
        color={data.status === 'failed' ? 'red' : undefined}
        animated={!DONE.includes(data.status)}
      />
      {data.status === 'failed' ? (
        <Alert color="gray" title="The import failed">
          Its upload expired before all its rows were sent, or a chunk of rows could never be decided. The
          rows sent before still count.
        </Alert>
      ) : null}
      <Facts
        items={[
          [
            'Audience',
            <To key="a" to={`/audiences/${data.audience_id}`}>{`Audience ${data.audience_id}`}</To>,
          ],
          ['Contacts created', data.contacts_created],
          ['Contacts matched', data.contacts_matched],
          ['Rows skipped', data.rows_skipped],
          ['Created', <Time key="c" at={data.created_at} />],
          ['Started', <Time key="s" at={data.started_at} />],
          ['Finished', <Time key="f" at={data.finished_at} />],
        ]}
      />
      {data.errors.length > 0 ? (
        <ResourceTable<Job['errors'][number]>
          caption="Skipped rows (the first 100)"
          rows={data.errors}
          rowKey={(error) => `${error.row}-${error.reason}`}
          columns={[
            { header: 'Row', cell: (error) => error.row },
            { header: 'Reason', cell: (error) => error.reason.replace(/_/g, ' ') },
          ]}
        />
      ) : null}
    </Stack>
  );
}
