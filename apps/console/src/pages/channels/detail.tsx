import {
  Alert,
  Checkbox,
  Code,
  Group,
  JsonInput,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';

import { ok, type Schema } from '../../api';
import { ApiForm, parseJson, useSubmit } from '../../components/forms';
import { ConfirmButton, Facts, Json, PageHeader, QueryState, Section, Time, To } from '../../components/ui';
import { Can, useApi } from '../../session';
import { StatusBadge as Status } from '../../components/ui';
import { CredentialInputs } from './credentials';
import { credentialFields, credentialsBody } from './providers';

type Channel = Schema<'Channel'>;

/** One channel: what the API answers of it (credentials masked), edit, delete, sandbox inbound. */
export function ChannelPage() {
  const api = useApi();
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const channel = useQuery({
    queryKey: ['channels', 'one', id],
    queryFn: () => ok(api.GET('/api/v1/channels/{id}', { params: { path: { id } } })),
  });
  return (
    <QueryState isPending={channel.isPending} error={channel.error}>
      {() => {
        const data = channel.data!.data;
        return (
          <>
            <PageHeader
              title={`Channel ${data.name}`}
              description={`${data.type} through ${data.provider}`}
              actions={
                <Can permission="delete">
                  <ConfirmButton
                    label="Delete channel"
                    title={`Delete the channel ${data.name}?`}
                    message={
                      data.is_default
                        ? 'It is the default of its type: the flag passes to the oldest channel of the type left.'
                        : 'Messages can no longer go out through it.'
                    }
                    action={() => ok(api.DELETE('/api/v1/channels/{id}', { params: { path: { id } } }))}
                    invalidates={[['channels']]}
                    onDone={() => void navigate('/channels')}
                  />
                </Can>
              }
            />
            <To to="/channels">All channels</To>
            <Section title="Details">
              <Facts
                items={[
                  ['Id', data.id],
                  ['Type', data.type],
                  ['Provider', data.provider],
                  ['Status', <Status key="s" status={data.status} />],
                  ['Default of its type', data.is_default ? 'yes' : 'no'],
                  ['Callback URL', <Code key="c">{data.callback_url}</Code>],
                  ['Created', <Time key="t" at={data.created_at} />],
                  ['Updated', <Time key="u" at={data.updated_at} />],
                ]}
              />
              {data.status === 'failing' ? (
                <Alert color="gray" title="Failing: the provider refused the credentials">
                  The provider refused the credentials. A successful send sets the channel back to active.
                </Alert>
              ) : null}
              <Text size="sm" fw={600}>
                Credentials (masked)
              </Text>
              {Object.keys(data.credentials).length === 0 ? (
                <Text size="sm" c="dimmed">
                  None.
                </Text>
              ) : (
                <Facts
                  items={Object.entries(data.credentials).map(([key, value]) => [
                    key,
                    <Code key={key}>{value}</Code>,
                  ])}
                />
              )}
              <Text size="sm" fw={600}>
                Metadata
              </Text>
              <Json value={data.metadata} label="Metadata" />
            </Section>
            <Can permission="update">
              <Section title="Edit channel">
                <EditChannel key={data.updated_at} channel={data} />
              </Section>
            </Can>
            {data.provider === 'sandbox' ? (
              <Can permission="create">
                <Section title="Sandbox inbound">
                  <SandboxInbound channel={data} />
                </Section>
              </Can>
            ) : null}
          </>
        );
      }}
    </QueryState>
  );
}

function EditChannel({ channel }: { channel: Channel }) {
  const api = useApi();
  const [name, setName] = useState(channel.name);
  const [status, setStatus] = useState<'active' | 'disabled' | ''>(
    channel.status === 'failing' ? '' : channel.status,
  );
  const [isDefault, setIsDefault] = useState(channel.is_default);
  const [credentials, setCredentials] = useState<Record<string, string>>({});
  const [metadata, setMetadata] = useState(JSON.stringify(channel.metadata, null, 2));
  const fields = credentialFields(channel.provider, channel.type);
  const save = useSubmit(
    () => {
      const creds = credentialsBody(fields, credentials);
      const meta = parseJson(metadata, 'Metadata') as Record<string, unknown> | undefined;
      return ok(
        api.PATCH('/api/v1/channels/{id}', {
          params: { path: { id: channel.id } },
          body: {
            name,
            ...(status ? { status } : {}),
            ...(isDefault !== channel.is_default ? { is_default: isDefault } : {}),
            ...(Object.keys(creds).length > 0 ? { credentials: creds } : {}),
            ...(meta !== undefined ? { metadata: meta } : {}),
          },
        }),
      );
    },
    { invalidates: [['channels']], onSuccess: () => setCredentials({}) },
  );
  return (
    <ApiForm
      label="Edit channel"
      onSubmit={() => save.mutate(undefined)}
      error={save.error}
      shown={['name', 'status', 'is_default', 'credentials', 'metadata']}
      submitLabel="Save channel"
      pending={save.isPending}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        <TextInput
          label="Name"
          required
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={save.problems.field('name')}
        />
        <NativeSelect
          label="Status"
          data={[
            ...(channel.status === 'failing' ? [{ value: '', label: 'failing (leave as it is)' }] : []),
            { value: 'active', label: 'active' },
            { value: 'disabled', label: 'disabled' },
          ]}
          value={status}
          onChange={(event) => setStatus(event.currentTarget.value as 'active' | 'disabled' | '')}
          error={save.problems.field('status')}
        />
      </SimpleGrid>
      <Checkbox
        label="Make it the default channel"
        checked={isDefault}
        onChange={(event) => setIsDefault(event.currentTarget.checked)}
        error={save.problems.field('is_default')}
      />
      <CredentialInputs
        fields={fields}
        values={credentials}
        onChange={setCredentials}
        problems={save.problems}
        keepHint="Blank keeps the stored value."
      />
      <JsonInput
        label="Metadata (JSON object, merged one level deep; a member set to null is removed)"
        autosize
        minRows={2}
        value={metadata}
        onChange={setMetadata}
        error={save.problems.field('metadata')}
        styles={{ input: { fontFamily: 'monospace' } }}
      />
    </ApiForm>
  );
}

/** Acts as a contact writing in on a sandbox channel (extensions §9.5). */
function SandboxInbound({ channel }: { channel: Channel }) {
  const api = useApi();
  const [from, setFrom] = useState('');
  const [text, setText] = useState('');
  const send = useSubmit(
    () =>
      ok(
        api.POST('/api/v1/channels/{id}/sandbox/inbound', {
          params: { path: { id: channel.id } },
          body: { from, text },
        }),
      ),
    { invalidates: [['messages'], ['contacts']] },
  );
  const message = send.data?.data;
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        Simulate a contact writing in: the sender is matched to a contact (an unknown sender on a phone
        channel becomes one); STOP / START keywords change the suppression list and the consent.
      </Text>
      <ApiForm
        label="Sandbox inbound"
        onSubmit={() => send.mutate(undefined)}
        error={send.error}
        shown={['from', 'text']}
        submitLabel="Send inbound message"
        pending={send.isPending}
      >
        <Group align="flex-start" wrap="wrap" gap="xs">
          <TextInput
            label="From"
            required
            description="A phone number, email or linked id"
            value={from}
            onChange={(event) => setFrom(event.currentTarget.value)}
            error={send.problems.field('from')}
          />
          <TextInput
            label="Text"
            required
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            error={send.problems.field('text')}
          />
        </Group>
      </ApiForm>
      {message ? (
        <Alert color="gray" title="Inbound message recorded" role="status">
          <Facts
            items={[
              [
                'Message',
                <To key="m" to={`/messages/${message.id}`}>
                  {message.id}
                </To>,
              ],
              ['Status', message.status],
              ['From', message.recipient],
              [
                'Contact',
                message.contact_id ? (
                  <To key="c" to={`/contacts/${message.contact_id}`}>{`Contact ${message.contact_id}`}</To>
                ) : (
                  'no contact matched'
                ),
              ],
              ['Text', message.body],
            ]}
          />
        </Alert>
      ) : null}
    </Stack>
  );
}
