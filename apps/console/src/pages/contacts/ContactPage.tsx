import { Button, Group, JsonInput, Modal, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';

import { ok, type PageMeta, type Schema } from '../../api';
import { ApiForm, parseJson, useSubmit } from '../../components/forms';
import {
  ConfirmButton,
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
import { MessageStatus } from '../messages/shared';
import {
  CHANNEL_TYPES,
  CONSENT_PATHS,
  ContactFields,
  type ContactDraft,
  ERROR_CONTRAST,
  LINKABLE_CHANNELS,
  consentBody,
  consentFrom,
  consentWord,
  type Contact,
} from './shared';

type RecordedEvent = Schema<'RecordedEvent'>;
type Message = Schema<'Message'>;

/** One contact: identity, data, consent, tags, channel links, recent events and messages. */
export function ContactPage() {
  const api = useApi();
  const contactId = Number(useParams().id);
  const contact = useQuery({
    queryKey: ['contacts', contactId],
    queryFn: () =>
      ok(api.GET('/api/v1/contacts/{contact_id}', { params: { path: { contact_id: contactId } } })),
  });
  const c = contact.data?.data;
  return (
    <>
      <PageHeader
        title={c ? (c.name ?? `Contact ${c.id}`) : 'Contact'}
        description={<To to="/contacts">All contacts</To>}
        actions={
          c ? (
            <>
              <Can permission="update">
                <EditContact contact={c} />
              </Can>
              <Can permission="create">
                <Button component={Link} to={`/messages/new?contact_id=${c.id}`} variant="default">
                  Send a message
                </Button>
              </Can>
            </>
          ) : null
        }
      />
      <QueryState isPending={contact.isPending} error={contact.error}>
        {() => <ContactDetails contact={c!} />}
      </QueryState>
    </>
  );
}

function ContactDetails({ contact }: { contact: Contact }) {
  return (
    <>
      <Section title="Identity">
        <Facts
          items={[
            ['ID', contact.id],
            ['Name', contact.name ?? '—'],
            ['Phone', contact.phone ?? '—'],
            ['Email', contact.email ?? '—'],
            ['External ID', contact.external_id ?? '—'],
            ['Source', contact.source ?? '—'],
            ['Created', <Time key="c" at={contact.created_at} />],
            ['Updated', <Time key="u" at={contact.updated_at} />],
          ]}
        />
      </Section>
      <Section title="Data">
        <Json value={contact.data} label="Contact data" />
      </Section>
      <Section title="Marketing consent">
        <Facts items={CHANNEL_TYPES.map((type) => [type, consentWord(contact.marketing_consent[type])])} />
      </Section>
      <Section title="Tags">
        <ContactTags contact={contact} />
      </Section>
      <Section title="Channel links">
        <ChannelLinks contact={contact} />
      </Section>
      <Section title="Recent events">
        <Can permission="create">
          <RecordEventForm contact={contact} />
        </Can>
        <ContactEvents contactId={contact.id} />
      </Section>
      <Section title="Messages">
        <ContactMessages contactId={contact.id} />
      </Section>
    </>
  );
}

/** The contact's tags; attach one from the workspace's tags, detach any. */
function ContactTags({ contact }: { contact: Contact }) {
  const api = useApi();
  const [tagId, setTagId] = useState<string | null>(null);
  const tags = useQuery({
    queryKey: ['tags', 'all'],
    queryFn: () => ok(api.GET('/api/v1/tags', { params: { query: { per_page: 100 } } })),
  });
  const attach = useSubmit(
    () =>
      ok(
        api.POST('/api/v1/tags/attach', {
          body: { contact_id: contact.id, tag_ids: tagId ? [Number(tagId)] : [] },
        }),
      ),
    { invalidates: [['contacts']], onSuccess: () => setTagId(null) },
  );
  const held = new Set(contact.tags.map((tag) => tag.id));
  return (
    <Stack gap="xs">
      <ResourceTable
        caption="Tags of the contact"
        rows={contact.tags}
        rowKey={(tag) => tag.id}
        empty="No tags."
        columns={[
          { header: 'Name', cell: (tag) => tag.name },
          { header: 'Colour', cell: (tag) => tag.color ?? '—' },
          {
            header: 'Actions',
            cell: (tag) => (
              <Can permission="update">
                <ConfirmButton
                  label="Detach"
                  title={`Detach the tag ${tag.name}?`}
                  message="The tag stays in the workspace; only this contact loses it."
                  action={() =>
                    ok(
                      api.POST('/api/v1/tags/detach', {
                        body: { contact_id: contact.id, tag_ids: [tag.id] },
                      }),
                    )
                  }
                  invalidates={[['contacts']]}
                />
              </Can>
            ),
          },
        ]}
      />
      <Can permission="update">
        <ApiForm
          label="Attach a tag"
          onSubmit={() => attach.mutate(undefined)}
          error={attach.error}
          shown={['tag_ids', 'contact_id']}
          submitLabel="Attach tag"
          pending={attach.isPending}
        >
          <Select
            label="Tag"
            searchable
            data={(tags.data?.data ?? [])
              .filter((tag) => !held.has(tag.id))
              .map((tag) => ({ value: String(tag.id), label: tag.name }))}
            value={tagId}
            onChange={setTagId}
            nothingFoundMessage="No tag left to attach"
            error={attach.problems.field('tag_ids') ?? attach.problems.field('contact_id')}
            maw={360}
          />
        </ApiForm>
      </Can>
    </Stack>
  );
}

/** The contact's ids on telegram, messenger, instagram and browser push; set one with PUT. */
function ChannelLinks({ contact }: { contact: Contact }) {
  return (
    <Stack gap="xs">
      <Facts items={LINKABLE_CHANNELS.map((type) => [type, contact.channels[type] ?? 'Not linked'])} />
      <Can permission="update">
        <LinkChannelForm contact={contact} />
      </Can>
    </Stack>
  );
}

function LinkChannelForm({ contact }: { contact: Contact }) {
  const api = useApi();
  const [channel, setChannel] = useState<string>('telegram');
  const [externalId, setExternalId] = useState('');
  const link = useSubmit(
    () =>
      ok(
        api.PUT('/api/v1/contacts/{contact_id}/channels/{channel}', {
          params: { path: { contact_id: contact.id, channel } },
          body: { external_id: externalId },
        }),
      ),
    { invalidates: [['contacts']], onSuccess: () => setExternalId('') },
  );
  return (
    <ApiForm
      label="Link a channel"
      onSubmit={() => link.mutate(undefined)}
      error={link.error}
      shown={['external_id']}
      submitLabel="Link channel"
      pending={link.isPending}
    >
      <Group align="flex-start" wrap="wrap" gap="xs">
        <Select
          label="Channel"
          data={LINKABLE_CHANNELS}
          value={channel}
          allowDeselect={false}
          onChange={(next) => setChannel(next ?? 'telegram')}
        />
        <TextInput
          label="ID on the channel"
          required
          value={externalId}
          onChange={(event) => setExternalId(event.currentTarget.value)}
          error={link.problems.field('external_id')}
        />
      </Group>
      <Text size="xs" c="dimmed">
        Setting an ID another contact holds moves it to this contact. The API offers no way to remove a link.
      </Text>
    </ApiForm>
  );
}

/** The identifier an event names this contact by: phone, then external ID, then email (the API's order). */
function eventContact(contact: Contact): Schema<'EventContactBody'> | undefined {
  if (contact.phone) return { phone: contact.phone };
  if (contact.external_id) return { external_id: contact.external_id };
  if (contact.email) return { email: contact.email };
  return undefined;
}

/** POST /api/v1/events: records an event for this contact (workflows listening for the name start). */
function RecordEventForm({ contact }: { contact: Contact }) {
  const api = useApi();
  const [name, setName] = useState('');
  const [data, setData] = useState('');
  const identifier = eventContact(contact);
  const record = useSubmit(
    () => {
      const parsed = parseJson(data, 'Event data') as Record<string, unknown> | undefined;
      return ok(
        api.POST('/api/v1/events', {
          body: { name, contact: identifier ?? {}, ...(parsed !== undefined ? { data: parsed } : {}) },
        }),
      );
    },
    {
      invalidates: [['events', contact.id]],
      onSuccess: () => {
        setName('');
        setData('');
      },
    },
  );
  if (!identifier) {
    return (
      <Text size="sm" c="dimmed">
        An event names its contact by phone, external ID or email; this contact has none, so no event can be
        recorded for it here.
      </Text>
    );
  }
  return (
    <ApiForm
      label="Record event"
      onSubmit={() => record.mutate(undefined)}
      error={record.error}
      shown={['name', 'data']}
      submitLabel="Record event"
      pending={record.isPending}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        <TextInput
          label="Event name"
          required
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={record.problems.field('name')}
        />
        <JsonInput
          label="Event data (JSON object)"
          autosize
          minRows={2}
          value={data}
          onChange={setData}
          error={record.problems.field('data')}
        />
      </SimpleGrid>
      <Text size="xs" c="dimmed">
        {`Sent for the contact's ${Object.keys(identifier)[0]?.replace('_', ' ')} ${Object.values(identifier)[0]}.`}
      </Text>
    </ApiForm>
  );
}

function ContactEvents({ contactId }: { contactId: number }) {
  const api = useApi();
  const [page, setPage] = useState(1);
  const events = useQuery({
    queryKey: ['events', contactId, page],
    queryFn: () =>
      ok(
        api.GET('/api/v1/events', {
          params: { query: { 'filter[contact_id]': String(contactId), page, per_page: 10 } },
        }),
      ),
  });
  return (
    <QueryState isPending={events.isPending} error={events.error}>
      {() => (
        <ResourceTable<RecordedEvent>
          caption="Recent events of the contact"
          rows={events.data!.data}
          meta={events.data!.meta as PageMeta}
          page={page}
          onPage={setPage}
          rowKey={(event) => event.id}
          empty="No events."
          columns={[
            { header: 'Name', cell: (event) => event.name },
            { header: 'Occurred', cell: (event) => <Time at={event.occurred_at} /> },
            {
              header: 'Data',
              cell: (event) => (
                <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {JSON.stringify(event.data)}
                </Text>
              ),
            },
          ]}
        />
      )}
    </QueryState>
  );
}

function ContactMessages({ contactId }: { contactId: number }) {
  const api = useApi();
  const [page, setPage] = useState(1);
  const messages = useQuery({
    queryKey: ['messages', 'contact', contactId, page],
    queryFn: () =>
      ok(
        api.GET('/api/v1/messages', {
          params: { query: { 'filter[contact_id]': String(contactId), page, per_page: 10 } },
        }),
      ),
  });
  return (
    <QueryState isPending={messages.isPending} error={messages.error}>
      {() => (
        <ResourceTable<Message>
          caption="Messages of the contact"
          rows={messages.data!.data}
          meta={messages.data!.meta as PageMeta}
          page={page}
          onPage={setPage}
          rowKey={(message) => message.id}
          empty="No messages."
          columns={[
            { header: 'Message', cell: (message) => <To to={`/messages/${message.id}`}>{message.id}</To> },
            { header: 'Direction', cell: (message) => message.direction },
            { header: 'Channel', cell: (message) => message.channel },
            { header: 'Template', cell: (message) => message.template ?? '—' },
            { header: 'Status', cell: (message) => <MessageStatus status={message.status} /> },
            { header: 'Created', cell: (message) => <Time at={message.created_at} /> },
          ]}
        />
      )}
    </QueryState>
  );
}

/** PUT /api/v1/contacts/{id}: changes the fields sent (data merged key by key), in a dialog. */
function EditContact({ contact }: { contact: Contact }) {
  const api = useApi();
  const [opened, { open, close }] = useDisclosure(false);
  const [draft, setDraft] = useState<ContactDraft>({
    name: contact.name ?? '',
    phone: contact.phone ?? '',
    email: contact.email ?? '',
    external_id: contact.external_id ?? '',
    data: '',
    consent: consentFrom(contact.marketing_consent),
  });
  const save = useSubmit(
    () => {
      const { name, phone, email, external_id: externalId } = draft;
      const parsed = parseJson(draft.data, 'Data') as Record<string, unknown> | undefined;
      const marketing = consentBody(draft.consent);
      const body = {
        ...(name.trim() && name !== contact.name ? { name } : {}),
        ...(phone.trim() && phone !== contact.phone ? { phone: phone.trim() } : {}),
        ...(email.trim() && email !== contact.email ? { email: email.trim() } : {}),
        ...(externalId.trim() && externalId !== contact.external_id
          ? { external_id: externalId.trim() }
          : {}),
        ...(parsed !== undefined ? { data: parsed } : {}),
        ...(marketing ? { marketing_consent: marketing } : {}),
      };
      return ok(
        api.PUT('/api/v1/contacts/{contact_id}', { params: { path: { contact_id: contact.id } }, body }),
      );
    },
    { invalidates: [['contacts']], onSuccess: close },
  );
  return (
    <>
      <Button variant="default" onClick={open}>
        Edit contact
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title="Edit contact"
        centered
        size="xl"
        style={ERROR_CONTRAST}
        closeButtonProps={{ 'aria-label': 'Close the dialog' }}
      >
        <ApiForm
          label="Edit contact"
          onSubmit={() => save.mutate(undefined)}
          error={save.error}
          shown={['name', 'phone', 'email', 'external_id', 'data', ...CONSENT_PATHS]}
          submitLabel="Save"
          pending={save.isPending}
        >
          <ContactFields
            draft={draft}
            onChange={setDraft}
            dataLabel="Data to merge (JSON object)"
            error={(path) => save.problems.field(path)}
          />
        </ApiForm>
      </Modal>
    </>
  );
}
