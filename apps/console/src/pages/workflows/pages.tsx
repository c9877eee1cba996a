import { Button, Group, Modal, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';

import { filled, ok, type PageMeta, type Schema } from '../../api';
import { useSubmit } from '../../components/forms';
import { FilterBar, SelectFilter, TextFilter, useListFilters } from '../../components/filters';
import {
  ConfirmButton,
  ErrorAlert,
  Facts,
  Json,
  PageHeader,
  QueryState,
  ResourceTable,
  Section,
  Time,
  To,
} from '../../components/ui';
import { Can, useApi } from '../../session';
import { StatusBadge as Status } from '../../components/ui';
import { WorkflowForm, type Workflow } from './form';

type Run = Schema<'WorkflowRun'>;
type Outcome = Schema<'Outcome'>;

const GOING = new Set(['active', 'waiting']);

function useId(): number {
  const { id } = useParams();
  return Number(id);
}

/** The workspace's workflows: filters, a "New workflow" form, each linking to its page. */
export function WorkflowsPage() {
  const api = useApi();
  const filters = useListFilters<{ enabled: string | null; name: string }>({ enabled: null, name: '' });
  const { page, setPage } = filters;
  const { enabled, name } = filters.values;
  const [creating, { open, close }] = useDisclosure(false);
  const workflows = useQuery({
    queryKey: ['workflows', 'list', page, enabled, name],
    queryFn: () =>
      ok(
        api.GET('/api/v1/workflows', {
          params: {
            query: filled({ page, per_page: 25, 'filter[enabled]': enabled ?? '', 'filter[name]': name }),
          },
        }),
      ),
  });
  return (
    <>
      <PageHeader
        title="Workflows"
        description="Automations started by an event: steps that send, wait, branch and update the contact."
        actions={
          <Can permission="create">
            <Button onClick={creating ? close : open}>{creating ? 'Close the form' : 'New workflow'}</Button>
          </Can>
        }
      />
      {creating ? (
        <Can permission="create">
          <Section title="New workflow">
            <WorkflowForm onSaved={close} />
          </Section>
        </Can>
      ) : null}
      <Section title="All workflows">
        <FilterBar>
          <SelectFilter
            label="Status"
            data={[
              { value: 'true', label: 'Active (enabled)' },
              { value: 'false', label: 'Inactive (disabled)' },
            ]}
            value={filters.values.enabled}
            onChange={filters.set('enabled')}
          />
          <TextFilter
            label="Exact match filter"
            description="The whole workflow name"
            value={filters.values.name}
            onChange={filters.set('name')}
          />
        </FilterBar>
        <QueryState isPending={workflows.isPending} error={workflows.error}>
          {() => (
            <ResourceTable<Workflow>
              caption="Workflows"
              rows={workflows.data!.data}
              meta={workflows.data!.meta as PageMeta}
              page={page}
              onPage={setPage}
              rowKey={(w) => w.id}
              columns={[
                { header: 'Name', cell: (w) => <To to={`/workflows/${w.id}`}>{w.name}</To> },
                { header: 'Status', cell: (w) => <Status status={w.enabled ? 'active' : 'inactive'} /> },
                { header: 'Trigger', cell: (w) => w.trigger.event },
                { header: 'Goal', cell: (w) => (w.goal ? `${w.goal.event} within ${w.goal.within}` : '—') },
                { header: 'Steps', cell: (w) => w.steps.length },
                { header: 'Version', cell: (w) => w.version },
                { header: 'Updated', cell: (w) => <Time at={w.updated_at} /> },
              ]}
            />
          )}
        </QueryState>
      </Section>
    </>
  );
}

/** One workflow: its facts and version, edit, activate/deactivate, delete, and its runs. */
export function WorkflowPage() {
  const api = useApi();
  const id = useId();
  const navigate = useNavigate();
  const [editing, { open, close }] = useDisclosure(false);
  const workflow = useQuery({
    queryKey: ['workflows', 'one', id],
    queryFn: () => ok(api.GET('/api/v1/workflows/{id}', { params: { path: { id } } })),
  });
  const toggle = useSubmit(
    (w: Workflow) =>
      ok(
        api.PATCH('/api/v1/workflows/{id}', {
          params: { path: { id: w.id } },
          body: { name: w.name, trigger: w.trigger, steps: w.steps, enabled: !w.enabled },
        }),
      ),
    { invalidates: [['workflows']] },
  );
  const w = workflow.data?.data;
  return (
    <>
      <PageHeader
        title={w ? `Workflow: ${w.name}` : 'Workflow'}
        description={<To to="/workflows">All workflows</To>}
        actions={
          w ? (
            <Group gap="xs" wrap="wrap">
              <Can permission="update">
                <Button variant="default" onClick={editing ? close : open}>
                  {editing ? 'Close the editor' : 'Edit'}
                </Button>
                <Button variant="light" loading={toggle.isPending} onClick={() => toggle.mutate(w)}>
                  {w.enabled ? 'Deactivate' : 'Activate'}
                </Button>
              </Can>
              <Can permission="delete">
                <ConfirmButton
                  label="Delete"
                  title={`Delete the workflow ${w.name}?`}
                  message="Its going runs end exited (workflow_deleted); they stay readable."
                  action={() => ok(api.DELETE('/api/v1/workflows/{id}', { params: { path: { id: w.id } } }))}
                  invalidates={[['workflows']]}
                  onDone={() => void navigate('/workflows')}
                />
              </Can>
            </Group>
          ) : null
        }
      />
      <ErrorAlert error={toggle.error} />
      <QueryState isPending={workflow.isPending} error={workflow.error}>
        {() => (
          <>
            <Section title="Workflow">
              <Facts
                items={[
                  ['Status', <Status key="s" status={w!.enabled ? 'active' : 'inactive'} />],
                  ['Current version', w!.version],
                  ['Trigger event', w!.trigger.event],
                  ['Re-entry', w!.re_entry],
                  ['Goal', w!.goal ? `${w!.goal.event} within ${w!.goal.within}` : '—'],
                  ['Created', <Time key="c" at={w!.created_at} />],
                  ['Updated', <Time key="u" at={w!.updated_at} />],
                ]}
              />
              <Text size="sm" c="dimmed">
                Versions: the API answers only the current version ({w!.version}); versions 1 to {w!.version}{' '}
                are the ones runs may have started with, as the Runs table shows.
              </Text>
              <Json label="Trigger filter" value={w!.trigger.filter} />
            </Section>
            {editing ? (
              <Can permission="update">
                <Section title="Edit the workflow">
                  <WorkflowForm key={`${w!.id}-${w!.updated_at}`} workflow={w!} onSaved={close} />
                </Section>
              </Can>
            ) : null}
            <Section title="Steps">
              <ResourceTable<Workflow['steps'][number]>
                caption="Steps"
                rows={w!.steps}
                rowKey={(step) => step.id}
                columns={[
                  { header: 'ID', cell: (step) => step.id },
                  { header: 'Type', cell: (step) => step.type },
                  {
                    header: 'Fields',
                    cell: (step) => {
                      const { id: _id, type: _type, ...rest } = step;
                      return <Json label={`Fields of step ${step.id}`} value={rest} />;
                    },
                  },
                ]}
              />
            </Section>
            <Runs workflowId={id} />
          </>
        )}
      </QueryState>
    </>
  );
}

const RUN_STATUSES = ['active', 'waiting', 'completed', 'goal_reached', 'exited', 'failed'];

function Runs({ workflowId }: { workflowId: number }) {
  const api = useApi();
  const filters = useListFilters<{ status: string | null; contact: string }>({ status: null, contact: '' });
  const { page, setPage } = filters;
  const { status, contact } = filters.values;
  const runs = useQuery({
    queryKey: ['workflows', 'runs', workflowId, page, status, contact],
    queryFn: () =>
      ok(
        api.GET('/api/v1/workflows/{id}/runs', {
          params: {
            path: { id: workflowId },
            query: filled({
              page,
              per_page: 25,
              'filter[status]': status ?? '',
              'filter[contact_id]': contact,
            }),
          },
        }),
      ),
  });
  return (
    <Section title="Runs">
      <FilterBar>
        <SelectFilter
          label="Run status"
          data={RUN_STATUSES}
          value={filters.values.status}
          onChange={filters.set('status')}
        />
        <TextFilter label="Contact ID" value={filters.values.contact} onChange={filters.set('contact')} />
      </FilterBar>
      <QueryState isPending={runs.isPending} error={runs.error}>
        {() => (
          <ResourceTable<Run>
            caption="Runs"
            rows={runs.data!.data}
            meta={runs.data!.meta as PageMeta}
            page={page}
            onPage={setPage}
            rowKey={(run) => run.id}
            empty="No runs yet."
            columns={[
              { header: 'Run', cell: (run) => <To to={`/workflow-runs/${run.id}`}>Run {run.id}</To> },
              { header: 'Status', cell: (run) => <Status status={run.status} /> },
              {
                header: 'Contact',
                cell: (run) => <To to={`/contacts/${run.contact_id}`}>{run.contact_id}</To>,
              },
              { header: 'Version', cell: (run) => run.version },
              { header: 'Current step', cell: (run) => run.current_step ?? '—' },
              { header: 'Started', cell: (run) => <Time at={run.started_at} /> },
              { header: 'Ended', cell: (run) => <Time at={run.ended_at} /> },
            ]}
          />
        )}
      </QueryState>
    </Section>
  );
}

/** One run: status, current step, and every history entry; polls every 3 s while it goes on. */
export function RunPage() {
  const api = useApi();
  const id = useId();
  const run = useQuery({
    queryKey: ['workflow-runs', id],
    queryFn: () => ok(api.GET('/api/v1/workflow-runs/{id}', { params: { path: { id } } })),
    refetchInterval: (query) =>
      GOING.has(query.state.data?.data.status ?? 'active') && !query.state.error ? 3000 : false,
  });
  const r = run.data?.data;
  return (
    <>
      <PageHeader
        title={`Workflow run ${id}`}
        description={r ? <To to={`/workflows/${r.workflow_id}`}>Workflow {r.workflow_id}</To> : undefined}
      />
      <QueryState isPending={run.isPending} error={run.error}>
        {() => (
          <>
            <Section title="Run">
              <Facts
                items={[
                  ['Status', <Status key="s" status={r!.status} />],
                  ['Current step', r!.current_step ?? '—'],
                  [
                    'Workflow',
                    <To key="w" to={`/workflows/${r!.workflow_id}`}>{`Workflow ${r!.workflow_id}`}</To>,
                  ],
                  ['Version', r!.version],
                  [
                    'Contact',
                    <To key="c" to={`/contacts/${r!.contact_id}`}>
                      {String(r!.contact_id)}
                    </To>,
                  ],
                  ['Trigger event', r!.trigger_event_id],
                  ['Started', <Time key="st" at={r!.started_at} />],
                  ['Ended', <Time key="en" at={r!.ended_at} />],
                ]}
              />
              {GOING.has(r!.status) ? (
                <Text size="sm" c="dimmed">
                  This run is still going: the page refreshes every 3 seconds.
                </Text>
              ) : null}
            </Section>
            <Section title="History">
              <ResourceTable<Run['history'][number]>
                caption="History"
                rows={r!.history}
                rowKey={(entry) => `${entry.at}-${entry.step}-${entry.result}-${r!.history.indexOf(entry)}`}
                empty="No step has run yet."
                columns={[
                  { header: '#', cell: (entry) => r!.history.indexOf(entry) + 1 },
                  { header: 'Step', cell: (entry) => entry.step ?? '—' },
                  { header: 'Result', cell: (entry) => entry.result },
                  {
                    header: 'Message',
                    cell: (entry) =>
                      entry.message_id ? (
                        <To to={`/messages/${entry.message_id}`}>{entry.message_id}</To>
                      ) : (
                        '—'
                      ),
                  },
                  { header: 'At', cell: (entry) => <Time at={entry.at} /> },
                ]}
              />
            </Section>
          </>
        )}
      </QueryState>
    </>
  );
}

/** The outcomes: goals reached, each with its credited message; filters by workflow and contact. */
export function OutcomesPage() {
  const api = useApi();
  const filters = useListFilters<{ workflowId: string; contact: string }>({ workflowId: '', contact: '' });
  const { page, setPage } = filters;
  const { workflowId, contact } = filters.values;
  const [shown, setShown] = useState<Outcome | null>(null);
  const outcomes = useQuery({
    queryKey: ['outcomes', 'list', page, workflowId, contact],
    queryFn: () =>
      ok(
        api.GET('/api/v1/outcomes', {
          params: {
            query: filled({
              page,
              per_page: 25,
              'filter[workflow_id]': workflowId,
              'filter[contact_id]': contact,
            }),
          },
        }),
      ),
  });
  return (
    <>
      <PageHeader title="Outcomes" description="Workflow goals reached, and the message credited for each." />
      <Section title="All outcomes">
        <FilterBar>
          <TextFilter
            label="Workflow ID"
            value={filters.values.workflowId}
            onChange={filters.set('workflowId')}
          />
          <TextFilter label="Contact ID" value={filters.values.contact} onChange={filters.set('contact')} />
        </FilterBar>
        <QueryState isPending={outcomes.isPending} error={outcomes.error}>
          {() => (
            <ResourceTable<Outcome>
              caption="Outcomes"
              rows={outcomes.data!.data}
              meta={outcomes.data!.meta as PageMeta}
              page={page}
              onPage={setPage}
              rowKey={(o) => o.id}
              empty="No outcome yet."
              columns={[
                { header: 'Outcome', cell: (o) => <To to={`/outcomes/${o.id}`}>Outcome {o.id}</To> },
                { header: 'Goal', cell: (o) => o.goal },
                {
                  header: 'Workflow',
                  cell: (o) => <To to={`/workflows/${o.workflow.id}`}>{o.workflow.name}</To>,
                },
                {
                  header: 'Run',
                  cell: (o) => (
                    <To to={`/workflow-runs/${o.workflow.run_id}`}>{`Run ${o.workflow.run_id}`}</To>
                  ),
                },
                {
                  header: 'Contact',
                  cell: (o) => <To to={`/contacts/${o.contact.id}`}>{String(o.contact.id)}</To>,
                },
                {
                  header: 'Credited message',
                  cell: (o) =>
                    o.credited_message_id ? (
                      <To to={`/messages/${o.credited_message_id}`}>{o.credited_message_id}</To>
                    ) : (
                      '—'
                    ),
                },
                { header: 'Channel', cell: (o) => o.channel ?? '—' },
                { header: 'Occurred', cell: (o) => <Time at={o.occurred_at} /> },
                {
                  header: 'Details',
                  cell: (o) => (
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => setShown(o)}
                      aria-label={`Details of outcome ${o.id}`}
                    >
                      Details
                    </Button>
                  ),
                },
              ]}
            />
          )}
        </QueryState>
      </Section>
      <Modal
        opened={shown !== null}
        onClose={() => setShown(null)}
        title={`Outcome ${shown?.id ?? ''}`}
        centered
        size="lg"
      >
        {shown ? <OutcomeFacts outcome={shown} /> : null}
      </Modal>
    </>
  );
}

function OutcomeFacts({ outcome: o }: { outcome: Outcome }) {
  return (
    <>
      <Facts
        items={[
          ['Goal', o.goal],
          [
            'Workflow',
            <To key="w" to={`/workflows/${o.workflow.id}`}>{`${o.workflow.name} (${o.workflow.id})`}</To>,
          ],
          ['Run', <To key="r" to={`/workflow-runs/${o.workflow.run_id}`}>{`Run ${o.workflow.run_id}`}</To>],
          [
            'Credited message',
            o.credited_message_id ? (
              <To key="m" to={`/messages/${o.credited_message_id}`}>
                {o.credited_message_id}
              </To>
            ) : (
              'none'
            ),
          ],
          ['Channel', o.channel ?? '—'],
          [
            'Contact',
            <To key="c" to={`/contacts/${o.contact.id}`}>
              {String(o.contact.id)}
            </To>,
          ],
          ['Goal event', o.event.id],
          ['Occurred', <Time key="o" at={o.occurred_at} />],
          ['Recorded', <Time key="r2" at={o.created_at} />],
        ]}
      />
      <Json label="Goal event data" value={o.event.data} />
      <Json label="Contact" value={o.contact} />
    </>
  );
}

/** One outcome. */
export function OutcomePage() {
  const api = useApi();
  const id = useId();
  const outcome = useQuery({
    queryKey: ['outcomes', 'one', id],
    queryFn: () => ok(api.GET('/api/v1/outcomes/{id}', { params: { path: { id } } })),
  });
  return (
    <>
      <PageHeader title={`Outcome ${id}`} description={<To to="/outcomes">All outcomes</To>} />
      <QueryState isPending={outcome.isPending} error={outcome.error}>
        {() => (
          <Section title="Outcome">
            <OutcomeFacts outcome={outcome.data!.data} />
          </Section>
        )}
      </QueryState>
    </>
  );
}
