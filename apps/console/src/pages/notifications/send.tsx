import { Button, Group } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';

import { ok, type Schema } from '../../api';
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
import { Can, useApi } from '../../session';
import { StatusBadge as StateBadge } from '../../components/ui';

type Send = Schema<'NotificationSend'>;
type Status = Send['status'];

const FINISHED: Status[] = ['completed', 'cancelled', 'failed'];
const PAUSABLE: Status[] = ['queued', 'preparing', 'sending'];
const CANCELLABLE: Status[] = ['queued', 'preparing', 'sending', 'paused'];

const COUNT_LABELS: Array<[keyof Send['counts'], string]> = [
  ['queued', 'queued'],
  ['sent', 'sent'],
  ['delivered', 'delivered'],
  ['read', 'read'],
  ['failed', 'failed'],
  ['suppressed', 'suppressed'],
];

/** One send of a notification: its progress (polled while it goes on), pause, resume, cancel. */
export function NotificationSendPage() {
  const api = useApi();
  const id = Number(useParams().id);
  const send = useQuery({
    queryKey: ['notification-send', id],
    queryFn: () => ok(api.GET('/api/v1/notification-sends/{id}', { params: { path: { id } } })),
    refetchInterval: (query) => {
      const status = query.state.data?.data.status;
      return status && FINISHED.includes(status) ? false : 2000;
    },
  });
  const data = send.data?.data;
  const invalidates = [['notification-send', id], ['notification-sends']];
  const queries = useQueryClient();
  const refresh = () => Promise.all(invalidates.map((queryKey) => queries.invalidateQueries({ queryKey })));
  const pause = useMutation({
    mutationFn: () => ok(api.POST('/api/v1/notification-sends/{id}/pause', { params: { path: { id } } })),
    onSuccess: refresh,
  });
  const resume = useMutation({
    mutationFn: () => ok(api.POST('/api/v1/notification-sends/{id}/resume', { params: { path: { id } } })),
    onSuccess: refresh,
  });
  return (
    <>
      <PageHeader
        title={`Notification send #${id}`}
        actions={
          data ? (
            <Can permission="create">
              <Group gap="xs" wrap="wrap">
                {PAUSABLE.includes(data.status) ? (
                  <Button variant="default" loading={pause.isPending} onClick={() => pause.mutate()}>
                    Pause
                  </Button>
                ) : null}
                {data.status === 'paused' ? (
                  <Button variant="default" loading={resume.isPending} onClick={() => resume.mutate()}>
                    Resume
                  </Button>
                ) : null}
                {CANCELLABLE.includes(data.status) ? (
                  <ConfirmButton
                    label="Cancel"
                    title="Cancel this send?"
                    message="Members not yet messaged never are; messages already made go their way."
                    action={() =>
                      ok(api.POST('/api/v1/notification-sends/{id}/cancel', { params: { path: { id } } }))
                    }
                    invalidates={invalidates}
                  />
                ) : null}
              </Group>
            </Can>
          ) : null
        }
      />
      <ErrorAlert error={pause.error ?? resume.error} />
      <QueryState isPending={send.isPending} error={send.error}>
        {() => (
          <>
            <To to={`/notifications/${data!.notification_id}`}>Notification #{data!.notification_id}</To>
            <Section title="Progress">
              <Facts
                items={[
                  ['Status', <StateBadge key="s" status={data!.status} />],
                  ['Test send', data!.test_mode ? 'yes' : 'no'],
                  ['Audience size', data!.audience_size ?? 'not taken yet'],
                  ['Deduplicated', data!.deduplicated],
                  ['Started', <Time key="st" at={data!.started_at} />],
                  ['Finished', <Time key="f" at={data!.finished_at} />],
                  ['Created', <Time key="c" at={data!.created_at} />],
                ]}
              />
            </Section>
            <Section title="Counts">
              <Facts items={COUNT_LABELS.map(([key, label]) => [label, data!.counts[key]])} />
            </Section>
            <Section title="Failures by code">
              <ResourceTable<[string, number]>
                caption="Failures by code"
                rows={Object.entries(data!.failures_by_code)}
                rowKey={([code]) => code}
                empty="No failures."
                columns={[
                  { header: 'Code', cell: ([code]) => code },
                  { header: 'Failed', cell: ([, count]) => count },
                ]}
              />
            </Section>
          </>
        )}
      </QueryState>
    </>
  );
}
