import { Button, Group, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import { filled, ok, type PageMeta, type Schema } from '../../api';
import { ApiForm, useSubmit } from '../../components/forms';
import { ConfirmButton, PageHeader, QueryState, ResourceTable, Section, Time } from '../../components/ui';
import { Can, useApi } from '../../session';
import { CHANNEL_TYPES, type ChannelType } from './shared';

type Suppression = Schema<'Suppression'>;

const REASONS = ['opted_out', 'bounced', 'spam_complaint', 'invalid_recipient', 'manual'];

/** The suppression list: addresses no message goes to. List, add (manual), remove. */
export function SuppressionsPage() {
  const api = useApi();
  const [page, setPage] = useState(1);
  const [draft, setDraft] = useState({ channel: '', address: '', reason: '' });
  const [applied, setApplied] = useState(draft);
  const query = filled({
    page,
    per_page: 50,
    'filter[channel]': applied.channel,
    'filter[address]': applied.address.trim(),
    'filter[reason]': applied.reason,
  });
  const entries = useQuery({
    queryKey: ['suppressions', query],
    queryFn: () => ok(api.GET('/api/v1/suppressions', { params: { query } })),
  });
  return (
    <>
      <PageHeader
        title="Suppressions"
        description="Addresses no message is sent to (opt-outs, bounces, complaints, and entries added by hand)."
      />
      <Can permission="create">
        <Section title="Add an address">
          <SuppressionForm />
        </Section>
      </Can>
      <Section title="Suppression list">
        <form
          role="search"
          aria-label="Filter the suppression list"
          onSubmit={(event) => {
            event.preventDefault();
            setPage(1);
            setApplied(draft);
          }}
        >
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
            <Select
              label="Channel filter"
              clearable
              data={CHANNEL_TYPES}
              value={draft.channel || null}
              onChange={(next) => setDraft({ ...draft, channel: next ?? '' })}
            />
            <TextInput
              label="Address filter"
              value={draft.address}
              onChange={(event) => setDraft({ ...draft, address: event.currentTarget.value })}
            />
            <Select
              label="Reason filter"
              clearable
              data={REASONS}
              value={draft.reason || null}
              onChange={(next) => setDraft({ ...draft, reason: next ?? '' })}
            />
          </SimpleGrid>
          <Group mt="xs" gap="xs" wrap="wrap">
            <Button type="submit" variant="default">
              Apply filters
            </Button>
          </Group>
        </form>
        <QueryState isPending={entries.isPending} error={entries.error}>
          {() => (
            <ResourceTable<Suppression>
              caption="Suppression list"
              rows={entries.data!.data}
              meta={entries.data!.meta as PageMeta}
              page={page}
              onPage={setPage}
              rowKey={(entry) => entry.id}
              empty="No suppressed addresses."
              columns={[
                { header: 'Address', cell: (entry) => entry.address },
                { header: 'Channel', cell: (entry) => entry.channel },
                { header: 'Reason', cell: (entry) => entry.reason },
                { header: 'Source', cell: (entry) => entry.source },
                { header: 'Added', cell: (entry) => <Time at={entry.created_at} /> },
                {
                  header: 'Actions',
                  cell: (entry) => (
                    <Can permission="delete">
                      <ConfirmButton
                        label="Remove"
                        title={`Remove ${entry.address} from the suppression list?`}
                        message="The address may be messaged again from the next send on. Removing an opt-out does not grant marketing consent."
                        action={() =>
                          ok(api.DELETE('/api/v1/suppressions/{id}', { params: { path: { id: entry.id } } }))
                        }
                        invalidates={[['suppressions']]}
                      />
                    </Can>
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

function SuppressionForm() {
  const api = useApi();
  const [channel, setChannel] = useState<ChannelType>('sms');
  const [address, setAddress] = useState('');
  const save = useSubmit(
    () => ok(api.POST('/api/v1/suppressions', { body: { channel, address, reason: 'manual' } })),
    { invalidates: [['suppressions']], onSuccess: () => setAddress('') },
  );
  return (
    <ApiForm
      label="Add to the suppression list"
      onSubmit={() => save.mutate(undefined)}
      error={save.error}
      shown={['channel', 'address', 'reason']}
      submitLabel="Add suppression"
      pending={save.isPending}
    >
      <Group align="flex-start" wrap="wrap" gap="xs">
        <Select
          label="Channel"
          data={CHANNEL_TYPES}
          value={channel}
          allowDeselect={false}
          onChange={(next) => setChannel((next ?? 'sms') as ChannelType)}
          error={save.problems.field('channel') ?? save.problems.field('reason')}
        />
        <TextInput
          label="Address"
          required
          description="A phone number, email or the channel's id"
          value={address}
          onChange={(event) => setAddress(event.currentTarget.value)}
          error={save.problems.field('address')}
        />
      </Group>
    </ApiForm>
  );
}
