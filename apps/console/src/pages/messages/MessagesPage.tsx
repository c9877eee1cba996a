import { Button, Group, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';

import { filled, ok, type PageMeta } from '../../api';
import { PageHeader, QueryState, ResourceTable, Section, Time, To } from '../../components/ui';
import { Can, useApi } from '../../session';
import { CHANNEL_TYPES, MESSAGE_STATUSES, type Message, MessageStatus } from './shared';

interface Filters {
  status: string;
  channel: string;
  contact_id: string;
  workflow_id: string;
  campaign_id: string;
  direction: string;
}

const NO_FILTERS: Filters = {
  status: '',
  channel: '',
  contact_id: '',
  workflow_id: '',
  campaign_id: '',
  direction: '',
};

/** Every message, outbound and inbound, newest first, with the list route's filters. */
export function MessagesPage() {
  const api = useApi();
  const [page, setPage] = useState(1);
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [applied, setApplied] = useState<Filters>(NO_FILTERS);
  const query = filled({
    page,
    per_page: 25,
    'filter[status]': applied.status,
    'filter[channel]': applied.channel,
    'filter[contact_id]': applied.contact_id.trim(),
    'filter[workflow_id]': applied.workflow_id.trim(),
    'filter[campaign_id]': applied.campaign_id.trim(),
    'filter[direction]': applied.direction,
  });
  const messages = useQuery({
    queryKey: ['messages', query],
    queryFn: () => ok(api.GET('/api/v1/messages', { params: { query } })),
  });
  const set = (key: keyof Filters) => (value: string | null) => setDraft({ ...draft, [key]: value ?? '' });
  return (
    <>
      <PageHeader
        title="Messages"
        description="Every message sent and received, newest first."
        actions={
          <>
            <Button component={Link} to="/suppressions" variant="default">
              Suppression list
            </Button>
            <Can permission="create">
              <Button component={Link} to="/messages/new">
                Send message
              </Button>
            </Can>
          </>
        }
      />
      <Section title="Filters">
        <form
          aria-label="Filter messages"
          role="search"
          onSubmit={(event) => {
            event.preventDefault();
            setPage(1);
            setApplied(draft);
          }}
        >
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
            <Select
              label="Status"
              clearable
              data={MESSAGE_STATUSES}
              value={draft.status || null}
              onChange={set('status')}
            />
            <Select
              label="Channel"
              clearable
              data={CHANNEL_TYPES}
              value={draft.channel || null}
              onChange={set('channel')}
            />
            <Select
              label="Direction"
              clearable
              data={['outbound', 'inbound']}
              value={draft.direction || null}
              onChange={set('direction')}
            />
            <TextInput
              label="Contact ID"
              inputMode="numeric"
              value={draft.contact_id}
              onChange={(event) => set('contact_id')(event.currentTarget.value)}
            />
            <TextInput
              label="Workflow ID"
              inputMode="numeric"
              value={draft.workflow_id}
              onChange={(event) => set('workflow_id')(event.currentTarget.value)}
            />
            <TextInput
              label="Campaign ID"
              inputMode="numeric"
              value={draft.campaign_id}
              onChange={(event) => set('campaign_id')(event.currentTarget.value)}
            />
          </SimpleGrid>
          <Group gap="xs" mt="xs" wrap="wrap">
            <Button type="submit" variant="default">
              Apply filters
            </Button>
            <Button
              variant="subtle"
              onClick={() => {
                setDraft(NO_FILTERS);
                setApplied(NO_FILTERS);
                setPage(1);
              }}
            >
              Clear filters
            </Button>
          </Group>
        </form>
      </Section>
      <Section title="All messages">
        <QueryState isPending={messages.isPending} error={messages.error}>
          {() => (
            <ResourceTable<Message>
              caption="Messages"
              rows={messages.data!.data}
              meta={messages.data!.meta as PageMeta}
              page={page}
              onPage={setPage}
              rowKey={(message) => message.id}
              empty="No messages match."
              columns={[
                {
                  header: 'Message',
                  cell: (message) => <To to={`/messages/${message.id}`}>{message.id}</To>,
                },
                { header: 'Status', cell: (message) => <MessageStatus status={message.status} /> },
                { header: 'Direction', cell: (message) => message.direction },
                { header: 'Channel', cell: (message) => message.channel },
                {
                  header: 'Contact',
                  cell: (message) =>
                    message.contact_id ? (
                      <To to={`/contacts/${message.contact_id}`}>{`Contact ${message.contact_id}`}</To>
                    ) : (
                      '—'
                    ),
                },
                { header: 'Recipient', cell: (message) => message.recipient ?? '—' },
                { header: 'Template', cell: (message) => message.template ?? '—' },
                { header: 'Created', cell: (message) => <Time at={message.created_at} /> },
              ]}
            />
          )}
        </QueryState>
      </Section>
    </>
  );
}
