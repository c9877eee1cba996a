import { Alert, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';

import { ok, type Schema } from '../../api';
import { Facts, PageHeader, QueryState, ResourceTable, Section, Time, To } from '../../components/ui';
import { useApi } from '../../session';
import { isMoving, type Message, MessageStatus } from './shared';

type HistoryEntry = Schema<'MessageHistoryEntry'>;
type MessageLink = Schema<'MessageLink'>;

/** One message: its status (polled while it still moves), history, failure and its fix, links. */
export function MessagePage() {
  const api = useApi();
  const id = useParams().id ?? '';
  const message = useQuery({
    queryKey: ['messages', 'one', id],
    queryFn: () => ok(api.GET('/api/v1/messages/{id}', { params: { path: { id } } })),
    refetchInterval: (query) => {
      const status = query.state.data?.data.status;
      return status && isMoving(status) ? 2000 : false;
    },
  });
  return (
    <>
      <PageHeader title={`Message ${id}`} description={<To to="/messages">All messages</To>} />
      <QueryState isPending={message.isPending} error={message.error}>
        {() => <MessageDetails message={message.data!.data} />}
      </QueryState>
    </>
  );
}

function MessageDetails({ message }: { message: Message }) {
  return (
    <>
      <Section title="Status">
        <Stack gap={4} aria-live="polite">
          <Text size="sm">
            Status: <strong>{message.status}</strong>{' '}
            {isMoving(message.status) ? '(checking every 2 seconds)' : null}
          </Text>
          <div>
            <MessageStatus status={message.status} />
          </div>
        </Stack>
        {message.failure ? (
          <Alert
            color="red"
            title={<Text fw={700} size="sm" c="dark.9">{`Failed: ${message.failure.code}`}</Text>}
          >
            <Stack gap={4}>
              <Text size="sm">{message.failure.reason}</Text>
              <Text size="sm">
                <strong>Fix: </strong>
                {message.failure.fix}
              </Text>
              {message.failure.provider_code ? (
                <Text size="sm">Provider code: {message.failure.provider_code}</Text>
              ) : null}
            </Stack>
          </Alert>
        ) : null}
        {message.suppression ? (
          <Alert
            color="orange"
            title={<Text fw={700} size="sm" c="dark.9">{`Suppressed: ${message.suppression.reason}`}</Text>}
          >
            <Text size="sm">{message.suppression.detail}</Text>
          </Alert>
        ) : null}
      </Section>
      <Section title="Details">
        <Facts
          items={[
            ['ID', message.id],
            ['Direction', message.direction],
            [
              'Contact',
              message.contact_id ? (
                <To
                  key="contact"
                  to={`/contacts/${message.contact_id}`}
                >{`Contact ${message.contact_id}`}</To>
              ) : (
                '—'
              ),
            ],
            [
              'Channel',
              <To key="channel" to={`/channels/${message.channel_id}`}>
                {`${message.channel} channel ${message.channel_id}`}
              </To>,
            ],
            ['Recipient', message.recipient ?? '—'],
            [
              'Template',
              message.template ? (
                <TemplateLink key="template" name={message.template} channel={message.channel} />
              ) : (
                '—'
              ),
            ],
            ['Purpose', message.purpose ?? '—'],
            [
              'Replaces',
              message.fallback_from ? (
                <To key="fallback" to={`/messages/${message.fallback_from}`}>
                  {message.fallback_from}
                </To>
              ) : (
                '—'
              ),
            ],
            [
              'Workflow',
              message.workflow ? (
                <Group key="workflow" gap="xs" wrap="wrap">
                  <To to={`/workflows/${message.workflow.id}`}>{message.workflow.name}</To>
                  <To to={`/workflow-runs/${message.workflow.run_id}`}>{`run ${message.workflow.run_id}`}</To>
                  <Text span size="sm">{`step ${message.workflow.step}`}</Text>
                </Group>
              ) : (
                '—'
              ),
            ],
            [
              'Campaign',
              message.campaign_id ? (
                <To key="campaign" to={`/notifications/${message.campaign_id}`}>
                  {`Notification ${message.campaign_id}`}
                </To>
              ) : (
                '—'
              ),
            ],
            [
              'Bot',
              message.bot ? (
                <Group key="bot" gap="xs" wrap="wrap">
                  <To to={`/bots/${message.bot.id}`}>{message.bot.name}</To>
                  <To to={`/bot-conversations/${message.bot.conversation_id}`}>
                    {`conversation ${message.bot.conversation_id}`}
                  </To>
                </Group>
              ) : (
                '—'
              ),
            ],
            ['Test send', message.test ? 'Yes' : 'No'],
            ['Created', <Time key="created" at={message.created_at} />],
            ['Sent', <Time key="sent" at={message.sent_at} />],
            ['Delivered', <Time key="delivered" at={message.delivered_at} />],
            ['Read', <Time key="read" at={message.read_at} />],
            ['Failed', <Time key="failed" at={message.failed_at} />],
          ]}
        />
      </Section>
      <Section title="Body">
        {message.body === null ? (
          <Text size="sm" c="dimmed">
            Not rendered yet.
          </Text>
        ) : (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {message.body}
          </Text>
        )}
      </Section>
      <Section title="History">
        <ResourceTable<HistoryEntry>
          caption="Status history"
          rows={message.history}
          rowKey={(entry) => `${entry.at}-${entry.status}-${entry.source}`}
          empty="No status changes yet."
          columns={[
            { header: 'Status', cell: (entry) => <MessageStatus status={entry.status} /> },
            { header: 'At', cell: (entry) => <Time at={entry.at} /> },
            { header: 'Source', cell: (entry) => entry.source },
            {
              header: 'Note',
              cell: (entry) => (entry.ignored ? 'Came too late: changed nothing' : '—'),
            },
          ]}
        />
      </Section>
      <Section title="Tracked links">
        <ResourceTable<MessageLink>
          caption="Tracked links"
          rows={message.links}
          rowKey={(link) => link.link_index}
          empty="No tracked links."
          columns={[
            {
              header: 'URL',
              cell: (link) => <Text style={{ overflowWrap: 'anywhere' }}>{link.url}</Text>,
            },
            { header: 'Clicks', cell: (link) => link.clicks },
            { header: 'Bot clicks', cell: (link) => link.bot_clicks },
            { header: 'First clicked', cell: (link) => <Time at={link.first_clicked_at} /> },
            { header: 'Last clicked', cell: (link) => <Time at={link.last_clicked_at} /> },
          ]}
        />
      </Section>
    </>
  );
}

/** The message names its template by name: the template of that name and channel type, linked. */
function TemplateLink({ name, channel }: { name: string; channel: Message['channel'] }) {
  const api = useApi();
  const found = useQuery({
    queryKey: ['templates', 'named', name, channel],
    queryFn: () =>
      ok(
        api.GET('/api/v1/templates', {
          params: { query: { 'filter[name]': name, 'filter[channel]': channel, per_page: 1 } },
        }),
      ),
    staleTime: 60_000,
  });
  const template = found.data?.data[0];
  return template ? <To to={`/templates/${template.id}`}>{name}</To> : <>{name}</>;
}
