import { NativeSelect } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, type RouteObject } from 'react-router';

import { ok, type PageMeta } from '../../api';
import { PageHeader, QueryState, ResourceTable, Section, Time, To } from '../../components/ui';
import { Can, useApi } from '../../session';
import { Readable } from './readable';
import { TemplatePage } from './detail';
import { CHANNEL_TYPES, TemplateForm, type Template } from './form';

/** The workspace's templates: list and create. */
function TemplatesPage() {
  const api = useApi();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [channel, setChannel] = useState('');
  const templates = useQuery({
    queryKey: ['templates', page],
    queryFn: () => ok(api.GET('/api/v1/templates', { params: { query: { page, per_page: 50 } } })),
  });
  return (
    <>
      <PageHeader title="Templates" description="Message bodies in Liquid, per channel type." />
      <Can permission="create">
        <Section title="New template">
          <TemplateForm
            label="New template"
            submitLabel="Create template"
            submit={(body) => ok(api.POST('/api/v1/templates', { body }))}
            onSaved={(result) => void navigate(`/templates/${(result as { data: Template }).data.id}`)}
          />
        </Section>
      </Can>
      <Section title="All templates">
        <NativeSelect
          label="Show only"
          maw={240}
          data={[
            { value: '', label: 'Every channel' },
            ...CHANNEL_TYPES.map((value) => ({ value, label: value })),
          ]}
          value={channel}
          onChange={(event) => setChannel(event.currentTarget.value)}
        />
        <QueryState isPending={templates.isPending} error={templates.error}>
          {() => (
            <ResourceTable<Template>
              caption="Templates"
              rows={templates.data!.data.filter((template) => !channel || template.channel === channel)}
              meta={templates.data!.meta as PageMeta}
              page={page}
              onPage={setPage}
              rowKey={(template) => template.id}
              columns={[
                {
                  header: 'Name',
                  cell: (template) => <To to={`/templates/${template.id}`}>{template.name}</To>,
                },
                { header: 'Channel', cell: (template) => template.channel },
                { header: 'Language', cell: (template) => template.language },
                {
                  header: 'Body',
                  cell: (template) =>
                    template.body
                      ? template.body.length > 60
                        ? `${template.body.slice(0, 60)}…`
                        : template.body
                      : template.provider_template
                        ? `provider template ${template.provider_template.name}`
                        : '—',
                },
                { header: 'Updated', cell: (template) => <Time at={template.updated_at} /> },
              ]}
            />
          )}
        </QueryState>
      </Section>
    </>
  );
}

export const routes: RouteObject[] = [
  {
    path: 'templates',
    element: (
      <Readable>
        <TemplatesPage />
      </Readable>
    ),
  },
  {
    path: 'templates/:id',
    element: (
      <Readable>
        <TemplatePage />
      </Readable>
    ),
  },
];
