import { Button, NativeSelect } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, type RouteObject } from 'react-router';

import { ok, type PageMeta, type Schema } from '../../api';
import { PageHeader, QueryState, ResourceTable, Section, Time, To } from '../../components/ui';
import { Can, useApi } from '../../session';
import { Readable } from './readable';
import { AudiencePage, NewAudiencePage } from './editor';
import { ImportsPage } from './imports';
import { StatusBadge as Status } from '../../components/ui';

type Audience = Schema<'Audience'>;

function AudiencesPage() {
  const api = useApi();
  const [page, setPage] = useState(1);
  const [source, setSource] = useState('');
  const audiences = useQuery({
    queryKey: ['audiences', page],
    queryFn: () => ok(api.GET('/api/v1/audiences', { params: { query: { page, per_page: 50 } } })),
  });
  return (
    <>
      <PageHeader
        title="Audiences"
        description="Contacts chosen by a filter or by an import; each with its size as of now."
        actions={
          <>
            <Can permission="create">
              <Button component={Link} to="/audiences/new">
                New audience
              </Button>
            </Can>
            <Button component={Link} to="/imports" variant="default">
              Import a CSV
            </Button>
          </>
        }
      />
      <Section title="All audiences">
        <NativeSelect
          label="Show only"
          maw={240}
          data={[
            { value: '', label: 'Every source' },
            { value: 'filters', label: 'filters' },
            { value: 'import', label: 'import' },
          ]}
          value={source}
          onChange={(event) => setSource(event.currentTarget.value)}
        />
        <QueryState isPending={audiences.isPending} error={audiences.error}>
          {() => (
            <ResourceTable<Audience>
              caption="Audiences"
              rows={audiences.data!.data.filter((audience) => !source || audience.source === source)}
              meta={audiences.data!.meta as PageMeta}
              page={page}
              onPage={setPage}
              rowKey={(audience) => audience.id}
              columns={[
                {
                  header: 'Name',
                  cell: (audience) => <To to={`/audiences/${audience.id}`}>{audience.name}</To>,
                },
                {
                  header: 'Source',
                  cell: (audience) => <Status status={audience.source} />,
                },
                { header: 'Size', cell: (audience) => audience.size },
                {
                  header: 'Conditions',
                  cell: (audience) =>
                    audience.source === 'import'
                      ? 'imported'
                      : `${audience.filter_criteria.length} at top level`,
                },
                { header: 'Updated', cell: (audience) => <Time at={audience.updated_at} /> },
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
    path: 'audiences',
    element: (
      <Readable>
        <AudiencesPage />
      </Readable>
    ),
  },
  {
    path: 'audiences/new',
    element: (
      <Readable>
        <NewAudiencePage />
      </Readable>
    ),
  },
  {
    path: 'audiences/:id',
    element: (
      <Readable>
        <AudiencePage />
      </Readable>
    ),
  },
  {
    path: 'imports',
    element: (
      <Readable>
        <ImportsPage />
      </Readable>
    ),
  },
];
