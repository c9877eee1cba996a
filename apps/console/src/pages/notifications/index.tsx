import { Button, Group, Modal, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams, type RouteObject } from 'react-router';

import { filled, ok, type PageMeta, type Schema } from '../../api';
import { ApiForm, useSubmit } from '../../components/forms';
import { ENABLED_CHOICES, SelectFilter, TextFilter, useListFilters } from '../../components/filters';
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
import { StatusBadge as StateBadge } from '../../components/ui';
import { NotificationForm, type Notification } from './form';
import { NotificationSendPage } from './send';

type Send = Schema<'NotificationSend'>;

function NotificationsPage() {
  const api = useApi();
  const filters = useListFilters<{
    search: string;
    name: string;
    templateName: string;
    audienceName: string;
    schedule: string;
    enabled: string | null;
  }>({ search: '', name: '', templateName: '', audienceName: '', schedule: '', enabled: null });
  const { page, setPage } = filters;
  const { search, name, templateName, audienceName, schedule, enabled } = filters.values;
  const query = filled({
    page,
    per_page: 50,
    'filter[search]': search,
    'filter[name]': name,
    'filter[template_name]': templateName,
    'filter[target_group.name]': audienceName,
    'filter[schedule]': schedule,
    'filter[enabled]': enabled ?? '',
  });
  const notifications = useQuery({
    queryKey: ['notifications', query],
    queryFn: () => ok(api.GET('/api/v1/notifications', { params: { query } })),
  });
  return (
    <>
      <PageHeader
        title="Notifications"
        description="Broadcasts: a template sent to an audience, now, at a time or on a cron schedule."
      />
      <Can permission="create">
        <Section title="New notification">
          <NotificationForm />
        </Section>
      </Can>
      <Section title="All notifications">
        <SimpleGrid cols={{ base: 1, sm: 3 }} component="fieldset" style={{ border: 0, padding: 0 }}>
          <TextFilter label="Search" value={search} onChange={filters.set('search')} />
          <TextFilter label="Name is" value={name} onChange={filters.set('name')} />
          <TextFilter label="Template name" value={templateName} onChange={filters.set('templateName')} />
          <TextFilter label="Audience name" value={audienceName} onChange={filters.set('audienceName')} />
          <TextFilter label="Schedule is" value={schedule} onChange={filters.set('schedule')} />
          <SelectFilter
            label="Enabled"
            data={ENABLED_CHOICES}
            value={enabled}
            onChange={filters.set('enabled')}
          />
        </SimpleGrid>
        <QueryState isPending={notifications.isPending} error={notifications.error}>
          {() => (
            <ResourceTable<Notification>
              caption="Notifications"
              rows={notifications.data!.data}
              meta={notifications.data!.meta as PageMeta}
              page={page}
              onPage={setPage}
              rowKey={(notification) => notification.id}
              columns={[
                {
                  header: 'Name',
                  cell: (notification) => (
                    <To to={`/notifications/${notification.id}`}>{notification.name}</To>
                  ),
                },
                { header: 'Template', cell: (notification) => notification.template_name },
                { header: 'Audience', cell: (notification) => notification.target_group.name },
                { header: 'Schedule', cell: (notification) => notification.schedule ?? '—' },
                { header: 'Next run', cell: (notification) => <Time at={notification.next_run_at} /> },
                {
                  header: 'Enabled',
                  cell: (notification) => (
                    <StateBadge status={notification.enabled ? 'enabled' : 'disabled'} />
                  ),
                },
              ]}
            />
          )}
        </QueryState>
      </Section>
    </>
  );
}

function NotificationPage() {
  const api = useApi();
  const navigate = useNavigate();
  const id = Number(useParams().id);
  const [editing, { open, close }] = useDisclosure(false);
  const notification = useQuery({
    queryKey: ['notification', id],
    queryFn: () => ok(api.GET('/api/v1/notifications/{id}', { params: { path: { id } } })),
  });
  const sendNow = useSubmit(
    () => ok(api.POST('/api/v1/notifications/send', { body: { notification_id: id } })),
    {
      invalidates: [['notification-sends', id]],
      onSuccess: (answer) => void navigate(`/notification-sends/${answer.data.send_id}`),
    },
  );
  const data = notification.data?.data;
  return (
    <>
      <PageHeader
        title={data ? `Notification ${data.name}` : 'Notification'}
        actions={
          data ? (
            <Group gap="xs" wrap="wrap">
              <Can permission="create">
                <Button loading={sendNow.isPending} onClick={() => sendNow.mutate(undefined)}>
                  Send now
                </Button>
              </Can>
              <Can permission="update">
                <Button variant="default" onClick={open}>
                  Edit
                </Button>
              </Can>
              <Can permission="delete">
                <ConfirmButton
                  label="Delete"
                  title={`Delete the notification ${data.name}?`}
                  message="Its template and audience are freed, and its unfinished sends are cancelled (they stay readable)."
                  action={() => ok(api.DELETE('/api/v1/notifications/{id}', { params: { path: { id } } }))}
                  invalidates={[['notifications']]}
                  onDone={() => void navigate('/notifications')}
                />
              </Can>
            </Group>
          ) : null
        }
      />
      <To to="/notifications">All notifications</To>
      <ErrorAlert error={sendNow.error} title="Not sent" />
      <QueryState isPending={notification.isPending} error={notification.error}>
        {() => (
          <>
            <Section title="Details">
              <Facts
                items={[
                  ['Name', data!.name],
                  ['Template', `${data!.template_name} (#${data!.template_id})`],
                  ['Audience', `${data!.target_group.name} (#${data!.target_group_id})`],
                  ['Enabled', data!.enabled ? 'yes' : 'no'],
                  ['Purpose', data!.purpose],
                  ['Schedule', data!.schedule ?? 'sent only when asked'],
                  ['Time zone', data!.schedule_timezone],
                  ['Next run', <Time key="n" at={data!.next_run_at} />],
                  ['Throttle per minute', data!.throttle_per_minute ?? 'none'],
                  ['Created', <Time key="c" at={data!.created_at} />],
                  ['Updated', <Time key="u" at={data!.updated_at} />],
                ]}
              />
              <Json value={data!.variables} label="Variables" />
              {data!.route ? <Json value={data!.route} label="Route" /> : null}
            </Section>
            <Can permission="create">
              <Section title="Test send">
                <TestSend id={id} />
              </Section>
            </Can>
            <Sends id={id} />
            <Modal opened={editing} onClose={close} title={`Edit the notification ${data!.name}`} size="lg">
              <NotificationForm notification={data!} onSaved={close} />
            </Modal>
          </>
        )}
      </QueryState>
    </>
  );
}

/** One message to a test phone, through the notification's route. */
function TestSend({ id }: { id: number }) {
  const api = useApi();
  const navigate = useNavigate();
  const [phone, setPhone] = useState('');
  const send = useSubmit(
    () =>
      ok(
        api.POST('/api/v1/notifications/send', {
          body: { notification_id: id, test_mode: true, test_phone: phone },
        }),
      ),
    {
      invalidates: [['notification-sends', id]],
      onSuccess: (answer) => void navigate(`/notification-sends/${answer.data.send_id}`),
    },
  );
  return (
    <ApiForm
      label="Send test"
      onSubmit={() => send.mutate(undefined)}
      error={send.error}
      shown={['test_phone']}
      submitLabel="Send test"
      pending={send.isPending}
    >
      <Stack gap="xs" maw={360}>
        <TextInput
          label="Test phone"
          description="A phone number with its country code, such as +14155550100."
          value={phone}
          onChange={(event) => setPhone(event.currentTarget.value)}
          error={send.problems.field('test_phone')}
        />
      </Stack>
    </ApiForm>
  );
}

function Sends({ id }: { id: number }) {
  const api = useApi();
  const [page, setPage] = useState(1);
  const sends = useQuery({
    queryKey: ['notification-sends', id, page],
    queryFn: () =>
      ok(
        api.GET('/api/v1/notifications/{id}/sends', {
          params: { path: { id }, query: { page, per_page: 25 } },
        }),
      ),
  });
  return (
    <Section title="Sends">
      <QueryState isPending={sends.isPending} error={sends.error}>
        {() => (
          <ResourceTable<Send>
            caption="Sends"
            rows={sends.data!.data}
            meta={sends.data!.meta as PageMeta}
            page={page}
            onPage={setPage}
            rowKey={(send) => send.id}
            columns={[
              {
                header: 'Send',
                cell: (send) => <To to={`/notification-sends/${send.id}`}>Send #{send.id}</To>,
              },
              { header: 'Status', cell: (send) => <StateBadge status={send.status} /> },
              { header: 'Test', cell: (send) => (send.test_mode ? 'test' : 'audience') },
              { header: 'Audience size', cell: (send) => send.audience_size ?? '—' },
              { header: 'Sent', cell: (send) => send.counts.sent },
              { header: 'Failed', cell: (send) => send.counts.failed },
              { header: 'Created', cell: (send) => <Time at={send.created_at} /> },
            ]}
          />
        )}
      </QueryState>
    </Section>
  );
}

export const routes: RouteObject[] = [
  { path: 'notifications', element: <NotificationsPage /> },
  { path: 'notifications/:id', element: <NotificationPage /> },
  { path: 'notification-sends/:id', element: <NotificationSendPage /> },
];
