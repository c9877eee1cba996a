import { Badge, Checkbox, Group, NativeSelect, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, type RouteObject } from 'react-router';

import { ok, type PageMeta, type Schema } from '../../api';
import { ApiForm, useSubmit } from '../../components/forms';
import { PageHeader, QueryState, ResourceTable, Section, Time, To } from '../../components/ui';
import { Can, useApi } from '../../session';
import { Readable } from './readable';
import { StatusBadge as Status } from '../../components/ui';
import { ChannelPage } from './detail';
import { CredentialInputs } from './credentials';
import {
  CHANNEL_TYPES,
  PROVIDERS,
  PROVIDER_TYPES,
  credentialFields,
  credentialsBody,
  type ChannelType,
  type Provider,
} from './providers';

type Channel = Schema<'Channel'>;

/** The workspace's channels: list, filter by type, create one with its provider's credentials. */
function ChannelsPage() {
  const api = useApi();
  const [page, setPage] = useState(1);
  const [type, setType] = useState('');
  const channels = useQuery({
    queryKey: ['channels', page, type],
    queryFn: () =>
      ok(
        api.GET('/api/v1/channels', {
          params: { query: { page, per_page: 50, ...(type ? { 'filter[type]': type } : {}) } },
        }),
      ),
  });
  return (
    <>
      <PageHeader
        title="Channels"
        description="Where messages go out and come in: a provider account per channel type."
      />
      <Can permission="create">
        <Section title="New channel">
          <ChannelForm />
        </Section>
      </Can>
      <Section title="All channels">
        <NativeSelect
          label="Show only"
          maw={240}
          data={[
            { value: '', label: 'Every type' },
            ...CHANNEL_TYPES.map((value) => ({ value, label: value })),
          ]}
          value={type}
          onChange={(event) => {
            setType(event.currentTarget.value);
            setPage(1);
          }}
        />
        <QueryState isPending={channels.isPending} error={channels.error}>
          {() => (
            <ResourceTable<Channel>
              caption="Channels"
              rows={channels.data!.data}
              meta={channels.data!.meta as PageMeta}
              page={page}
              onPage={setPage}
              rowKey={(channel) => channel.id}
              columns={[
                { header: 'Name', cell: (channel) => <To to={`/channels/${channel.id}`}>{channel.name}</To> },
                { header: 'Type', cell: (channel) => channel.type },
                { header: 'Provider', cell: (channel) => channel.provider },
                { header: 'Status', cell: (channel) => <Status status={channel.status} /> },
                {
                  header: 'Default',
                  cell: (channel) =>
                    channel.is_default ? (
                      <Badge variant="outline" color="gray">
                        default
                      </Badge>
                    ) : (
                      <Text size="sm">no</Text>
                    ),
                },
                { header: 'Created', cell: (channel) => <Time at={channel.created_at} /> },
              ]}
            />
          )}
        </QueryState>
      </Section>
    </>
  );
}

/** Creates a channel: type, name, provider (those serving the type) and the provider's credentials. */
function ChannelForm() {
  const api = useApi();
  const navigate = useNavigate();
  const [type, setType] = useState<ChannelType>('sms');
  const [name, setName] = useState('');
  const [provider, setProvider] = useState<Provider>('sandbox');
  const [credentials, setCredentials] = useState<Record<string, string>>({});
  const [isDefault, setIsDefault] = useState(false);
  const fields = credentialFields(provider, type);
  const providers = PROVIDERS.filter((candidate) => PROVIDER_TYPES[candidate].includes(type));
  const save = useSubmit(
    () =>
      ok(
        api.POST('/api/v1/channels', {
          body: {
            type,
            name,
            provider,
            credentials: credentialsBody(fields, credentials),
            ...(isDefault ? { is_default: true } : {}),
          },
        }),
      ),
    {
      invalidates: [['channels']],
      onSuccess: (result) => void navigate(`/channels/${result.data.id}`),
    },
  );
  return (
    <ApiForm
      label="New channel"
      onSubmit={() => save.mutate(undefined)}
      error={save.error}
      shown={['type', 'name', 'provider', 'credentials', 'is_default']}
      submitLabel="Create channel"
      pending={save.isPending}
    >
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
        <NativeSelect
          label="Type"
          required
          data={CHANNEL_TYPES.map((value) => ({ value, label: value }))}
          value={type}
          onChange={(event) => {
            const next = event.currentTarget.value as ChannelType;
            setType(next);
            if (!PROVIDER_TYPES[provider].includes(next)) setProvider('sandbox');
          }}
          error={save.problems.field('type')}
        />
        <TextInput
          label="Name"
          required
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={save.problems.field('name')}
        />
        <NativeSelect
          label="Provider"
          required
          data={providers.map((value) => ({ value, label: value }))}
          value={provider}
          onChange={(event) => {
            setProvider(event.currentTarget.value as Provider);
            setCredentials({});
          }}
          error={save.problems.field('provider')}
        />
      </SimpleGrid>
      {fields.length > 0 ? (
        <Text size="sm" fw={600}>
          Credentials for {provider}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          The sandbox provider needs no credentials and sends nothing outside the service.
        </Text>
      )}
      <CredentialInputs
        fields={fields}
        values={credentials}
        onChange={setCredentials}
        problems={save.problems}
      />
      <Group>
        <Checkbox
          label="Make it the default channel"
          checked={isDefault}
          onChange={(event) => setIsDefault(event.currentTarget.checked)}
          error={save.problems.field('is_default')}
        />
      </Group>
    </ApiForm>
  );
}

export const routes: RouteObject[] = [
  {
    path: 'channels',
    element: (
      <Readable>
        <ChannelsPage />
      </Readable>
    ),
  },
  {
    path: 'channels/:id',
    element: (
      <Readable>
        <ChannelPage />
      </Readable>
    ),
  },
];
