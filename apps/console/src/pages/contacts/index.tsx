import { Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, type RouteObject } from 'react-router';

import { filled, ok, type PageMeta } from '../../api';
import { ApiForm, parseJson, useSubmit } from '../../components/forms';
import { PageHeader, QueryState, ResourceTable, Section, Time, To } from '../../components/ui';
import { Can, useApi } from '../../session';
import { ContactPage } from './ContactPage';
import {
  CONSENT_PATHS,
  ContactFields,
  type ContactDraft,
  ErrorContrast,
  consentBody,
  emptyConsent,
  type Contact,
} from './shared';

const SEARCH_FIELDS = [
  { value: 'search', label: 'Any of name, email, phone' },
  { value: 'name', label: 'Name (whole)' },
  { value: 'phone', label: 'Phone' },
  { value: 'email', label: 'Email' },
  { value: 'external_id', label: 'External ID' },
  { value: 'tag', label: 'Tag (id or name)' },
];

/** The workspace's contacts: search by one field, page through, create or update one by upsert. */
function ContactsPage() {
  const api = useApi();
  const [page, setPage] = useState(1);
  const [field, setField] = useState('search');
  const [text, setText] = useState('');
  const [applied, setApplied] = useState<{ field: string; text: string }>({ field: 'search', text: '' });
  const [creating, setCreating] = useState(false);
  const query = filled({ page, per_page: 25, [`filter[${applied.field}]`]: applied.text.trim() });
  const contacts = useQuery({
    queryKey: ['contacts', query],
    queryFn: () => ok(api.GET('/api/v1/contacts', { params: { query } })),
  });
  return (
    <>
      <PageHeader
        title="Contacts"
        description="The people you message; upsert matches by phone, then external ID, then email."
        actions={
          <Can permission="create">
            <Button onClick={() => setCreating((open) => !open)} variant={creating ? 'default' : 'filled'}>
              {creating ? 'Close the form' : 'New contact'}
            </Button>
          </Can>
        }
      />
      {creating ? (
        <Can permission="create">
          <Section title="New contact">
            <UpsertContactForm />
          </Section>
        </Can>
      ) : null}
      <Section title="All contacts">
        <form
          role="search"
          aria-label="Search contacts"
          onSubmit={(event) => {
            event.preventDefault();
            setPage(1);
            setApplied({ field, text });
          }}
        >
          <Group align="flex-end" wrap="wrap" gap="xs">
            <Select
              label="Search by"
              data={SEARCH_FIELDS}
              value={field}
              allowDeselect={false}
              onChange={(next) => setField(next ?? 'search')}
            />
            <TextInput label="Search" value={text} onChange={(event) => setText(event.currentTarget.value)} />
            <Button type="submit" variant="default">
              Search
            </Button>
            {applied.text ? (
              <Button
                variant="subtle"
                onClick={() => {
                  setText('');
                  setPage(1);
                  setApplied({ field, text: '' });
                }}
              >
                Clear search
              </Button>
            ) : null}
          </Group>
        </form>
        <QueryState isPending={contacts.isPending} error={contacts.error}>
          {() => (
            <ResourceTable<Contact>
              caption="Contacts"
              rows={contacts.data!.data}
              meta={contacts.data!.meta as PageMeta}
              page={page}
              onPage={setPage}
              rowKey={(contact) => contact.id}
              empty={applied.text ? 'No contact matches.' : 'No contacts yet.'}
              columns={[
                {
                  header: 'Name',
                  cell: (contact) => (
                    <To to={`/contacts/${contact.id}`}>{contact.name ?? `Contact ${contact.id}`}</To>
                  ),
                },
                { header: 'Phone', cell: (contact) => contact.phone ?? '—' },
                { header: 'Email', cell: (contact) => contact.email ?? '—' },
                { header: 'External ID', cell: (contact) => contact.external_id ?? '—' },
                {
                  header: 'Tags',
                  cell: (contact) => contact.tags.map((tag) => tag.name).join(', ') || '—',
                },
                { header: 'Created', cell: (contact) => <Time at={contact.created_at} /> },
              ]}
            />
          )}
        </QueryState>
      </Section>
    </>
  );
}

/** POST /api/v1/contacts/upsert: creates a contact (or updates the one its identifiers match). */
function UpsertContactForm() {
  const api = useApi();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<ContactDraft>({
    name: '',
    phone: '',
    email: '',
    external_id: '',
    data: '',
    consent: emptyConsent(),
  });
  const save = useSubmit(
    () => {
      const parsed = parseJson(draft.data, 'Data') as Record<string, unknown> | undefined;
      const marketing = consentBody(draft.consent);
      const body = {
        name: draft.name,
        ...(draft.phone.trim() ? { phone: draft.phone.trim() } : {}),
        ...(draft.email.trim() ? { email: draft.email.trim() } : {}),
        ...(draft.external_id.trim() ? { external_id: draft.external_id.trim() } : {}),
        ...(parsed !== undefined ? { data: parsed } : {}),
        ...(marketing ? { marketing_consent: marketing } : {}),
      };
      return ok(api.POST('/api/v1/contacts/upsert', { body }));
    },
    {
      invalidates: [['contacts']],
      onSuccess: (result) => void navigate(`/contacts/${result.data.id}`),
    },
  );
  return (
    <ApiForm
      label="New contact"
      onSubmit={() => save.mutate(undefined)}
      error={save.error}
      shown={['name', 'phone', 'email', 'external_id', 'data', 'contact', ...CONSENT_PATHS]}
      submitLabel="Save contact"
      pending={save.isPending}
    >
      <Stack gap="xs">
        <ContactFields
          draft={draft}
          onChange={setDraft}
          requireName
          dataLabel="Data (JSON object)"
          // A contact without name, phone or email is refused at `contact`: shown at the name.
          error={(path) =>
            path === 'name'
              ? (save.problems.field('name') ?? save.problems.field('contact'))
              : save.problems.field(path)
          }
        />
      </Stack>
    </ApiForm>
  );
}

export const routes: RouteObject[] = [
  {
    path: 'contacts',
    element: (
      <ErrorContrast>
        <ContactsPage />
      </ErrorContrast>
    ),
  },
  {
    path: 'contacts/:id',
    element: (
      <ErrorContrast>
        <ContactPage />
      </ErrorContrast>
    ),
  },
];
