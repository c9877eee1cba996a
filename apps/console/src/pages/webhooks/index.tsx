import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  MultiSelect,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams, type RouteObject } from 'react-router';

import { ok, type PageMeta, type Schema } from '../../api';
import { ApiForm, useSubmit } from '../../components/forms';
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

type Endpoint = Schema<'WebhookEndpoint'>;
type Delivery = Schema<'WebhookDelivery'>;
type EventType = Endpoint['event_types'][number];

const EVENT_TYPES: EventType[] = [
  'message.sent',
  'message.delivered',
  'message.read',
  'message.failed',
  'message.suppressed',
  'link.clicked',
  'outcome.recorded',
  'consent.granted',
  'consent.revoked',
  'alert.triggered',
];

/** Enabled, or switched off and why (in words, not only in colour). */
function EndpointState({ endpoint }: { endpoint: Endpoint }) {
  if (endpoint.enabled) return <StateBadge status="enabled" />;
  return (
    <Group gap={6} wrap="wrap">
      <StateBadge status="disabled" />
      <Text size="sm">
        Switched off{' '}
        {endpoint.disabled_reason === 'failures'
          ? 'after 25 failed deliveries in a row'
          : endpoint.disabled_reason === 'manual'
            ? 'by hand'
            : ''}
      </Text>
    </Group>
  );
}

/** The signing secret, shown once: it lives only in the state of the component that received it. */
function SecretOnce({ secret, onDismiss }: { secret: string; onDismiss(): void }) {
  return (
    <Alert color="yellow" title="Copy the signing secret now" role="status">
      <Stack gap="xs">
        <Text size="sm">
          It will not be shown again. Your server checks each delivery's signature with it.
        </Text>
        <Code block aria-label="Signing secret" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
          {secret}
        </Code>
        <Group gap="xs" wrap="wrap">
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button size="sm" variant="light" onClick={copy}>
                {copied ? 'Copied' : 'Copy secret'}
              </Button>
            )}
          </CopyButton>
          <Button size="sm" variant="default" onClick={onDismiss}>
            I have kept it
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

function WebhookEndpointsPage() {
  const api = useApi();
  const [page, setPage] = useState(1);
  const [secret, setSecret] = useState<{ id: string; secret: string } | null>(null);
  const endpoints = useQuery({
    queryKey: ['webhook-endpoints', page],
    queryFn: () => ok(api.GET('/api/v1/webhook-endpoints', { params: { query: { page, per_page: 50 } } })),
  });
  return (
    <>
      <PageHeader
        title="Webhook endpoints"
        description="Your servers that receive the workspace's events, signed with their secret."
      />
      <Can permission="create">
        <Section title="New endpoint">
          {secret ? (
            <Stack gap="xs">
              <SecretOnce secret={secret.secret} onDismiss={() => setSecret(null)} />
              <To to={`/webhook-endpoints/${secret.id}`}>Open the new endpoint</To>
            </Stack>
          ) : null}
          <EndpointForm onCreated={(created) => setSecret({ id: created.id, secret: created.secret })} />
        </Section>
      </Can>
      <Section title="All endpoints">
        <QueryState isPending={endpoints.isPending} error={endpoints.error}>
          {() => (
            <ResourceTable<Endpoint>
              caption="Webhook endpoints"
              rows={endpoints.data!.data}
              meta={endpoints.data!.meta as PageMeta}
              page={page}
              onPage={setPage}
              rowKey={(endpoint) => endpoint.id}
              columns={[
                {
                  header: 'URL',
                  cell: (endpoint) => <To to={`/webhook-endpoints/${endpoint.id}`}>{endpoint.url}</To>,
                },
                { header: 'Event types', cell: (endpoint) => endpoint.event_types.join(', ') },
                { header: 'State', cell: (endpoint) => <EndpointState endpoint={endpoint} /> },
                { header: 'Description', cell: (endpoint) => endpoint.description ?? '—' },
                { header: 'Created', cell: (endpoint) => <Time at={endpoint.created_at} /> },
              ]}
            />
          )}
        </QueryState>
      </Section>
    </>
  );
}

/** Creates an endpoint (the answer's secret goes to `onCreated`, never to the cache), or edits one. */
function EndpointForm({
  endpoint,
  onCreated,
  onSaved,
}: {
  endpoint?: Endpoint;
  onCreated?(created: Schema<'WebhookEndpointCreated'>): void;
  onSaved?(): void;
}) {
  const api = useApi();
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [eventTypes, setEventTypes] = useState<string[]>(endpoint?.event_types ?? []);
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const save = useSubmit(
    async () => {
      const event_types = eventTypes as EventType[];
      if (endpoint) {
        await ok(
          api.PATCH('/api/v1/webhook-endpoints/{id}', {
            params: { path: { id: endpoint.id } },
            body: { url, event_types, ...(description ? { description } : {}) },
          }),
        );
        return null;
      }
      const created = await ok(
        api.POST('/api/v1/webhook-endpoints', {
          body: { url, event_types, ...(description ? { description } : {}) },
        }),
      );
      return created.data;
    },
    {
      invalidates: [['webhook-endpoints'], ['webhook-endpoint']],
      onSuccess: (created) => {
        if (created) {
          onCreated?.(created);
          setUrl('');
          setEventTypes([]);
          setDescription('');
        }
        onSaved?.();
      },
    },
  );
  return (
    <ApiForm
      label={endpoint ? 'Edit endpoint' : 'New endpoint'}
      onSubmit={() => save.mutate(undefined)}
      error={save.error}
      shown={['url', 'event_types', 'description']}
      submitLabel={endpoint ? 'Save' : 'Create endpoint'}
      pending={save.isPending}
    >
      <TextInput
        label="URL"
        required
        value={url}
        onChange={(event) => setUrl(event.currentTarget.value)}
        error={save.problems.field('url')}
      />
      <MultiSelect
        label="Event types"
        data={EVENT_TYPES}
        value={eventTypes}
        onChange={setEventTypes}
        searchable
        error={save.problems.field('event_types')}
      />
      <TextInput
        label="Description"
        value={description}
        onChange={(event) => setDescription(event.currentTarget.value)}
        error={save.problems.field('description')}
      />
    </ApiForm>
  );
}

function EditEndpoint({ endpoint }: { endpoint: Endpoint }) {
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Button variant="default" size="sm" onClick={open}>
        Edit
      </Button>
      <Modal opened={opened} onClose={close} title="Edit endpoint" centered>
        <EndpointForm endpoint={endpoint} onSaved={close} />
      </Modal>
    </>
  );
}

/** A button that posts and shows the API's refusal next to it. */
function ActionButton({
  label,
  action,
  onDone,
  invalidates,
}: {
  label: string;
  action(): Promise<unknown>;
  onDone?(): void;
  invalidates: string[][];
}) {
  const queries = useQueryClient();
  const mutation = useMutation({
    mutationFn: action,
    onSuccess: async () => {
      await Promise.all(invalidates.map((queryKey) => queries.invalidateQueries({ queryKey })));
      onDone?.();
    },
  });
  return (
    <Stack gap={4} align="flex-start">
      <Button size="sm" variant="default" loading={mutation.isPending} onClick={() => mutation.mutate()}>
        {label}
      </Button>
      <ErrorAlert error={mutation.error} />
    </Stack>
  );
}

function WebhookEndpointPage() {
  const api = useApi();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const [secret, setSecret] = useState<string | null>(null);
  const endpoint = useQuery({
    queryKey: ['webhook-endpoint', id],
    queryFn: () => ok(api.GET('/api/v1/webhook-endpoints/{id}', { params: { path: { id } } })),
  });
  const roll = useMutation({
    mutationFn: () =>
      ok(api.POST('/api/v1/webhook-endpoints/{id}/roll-secret', { params: { path: { id } } })),
    onSuccess: (answer) => setSecret(answer.data.secret),
  });
  const data = endpoint.data?.data;
  return (
    <>
      <PageHeader
        title={data ? `Endpoint ${data.url}` : 'Webhook endpoint'}
        actions={
          data ? (
            <Group gap="xs" wrap="wrap">
              <Can permission="update">
                <EditEndpoint endpoint={data} />
              </Can>
              <Can permission="delete">
                <ConfirmButton
                  label="Delete"
                  title="Delete this endpoint?"
                  message="Its deliveries go with it; nothing more is sent to it."
                  action={() =>
                    ok(api.DELETE('/api/v1/webhook-endpoints/{id}', { params: { path: { id } } }))
                  }
                  invalidates={[['webhook-endpoints']]}
                  onDone={() => void navigate('/webhook-endpoints')}
                />
              </Can>
            </Group>
          ) : null
        }
      />
      <To to="/webhook-endpoints">All webhook endpoints</To>
      <QueryState isPending={endpoint.isPending} error={endpoint.error}>
        {() => (
          <>
            <Section title="Details">
              {!data!.enabled ? (
                <Alert color="orange" title="This endpoint is switched off" role="status">
                  <Text size="sm">
                    {data!.disabled_reason === 'failures'
                      ? 'It was switched off after 25 failed deliveries in a row'
                      : 'It was switched off by hand'}{' '}
                    (last change <Time at={data!.updated_at} />
                    ). It receives nothing until switched on; deliveries held meanwhile then go out.
                  </Text>
                </Alert>
              ) : null}
              <Facts
                items={[
                  ['URL', data!.url],
                  ['State', <EndpointState key="state" endpoint={data!} />],
                  ['Switched off because', data!.disabled_reason ?? '—'],
                  ['Event types', data!.event_types.join(', ') || '—'],
                  ['Description', data!.description ?? '—'],
                  ['Failures in a row', data!.consecutive_failures],
                  ['Created', <Time key="c" at={data!.created_at} />],
                  ['Updated', <Time key="u" at={data!.updated_at} />],
                ]}
              />
              <Can permission="update">
                <Group gap="xs" wrap="wrap" align="flex-start">
                  {data!.enabled ? (
                    <ActionButton
                      label="Switch off"
                      action={() =>
                        ok(
                          api.PATCH('/api/v1/webhook-endpoints/{id}', {
                            params: { path: { id } },
                            body: { enabled: false },
                          }),
                        )
                      }
                      invalidates={[['webhook-endpoint', id], ['webhook-endpoints']]}
                    />
                  ) : (
                    <ActionButton
                      label="Switch on"
                      action={() =>
                        ok(
                          api.PATCH('/api/v1/webhook-endpoints/{id}', {
                            params: { path: { id } },
                            body: { enabled: true },
                          }),
                        )
                      }
                      invalidates={[['webhook-endpoint', id], ['webhook-endpoints']]}
                    />
                  )}
                  <ConfirmButton
                    label="Roll secret"
                    title="Roll the signing secret?"
                    message="A new secret is made and shown once. For 24 hours deliveries also carry a signature made with the previous one."
                    variant="default"
                    action={() => roll.mutateAsync()}
                  />
                </Group>
              </Can>
              <Can permission="create">
                <ActionButton
                  label="Send test"
                  action={() =>
                    ok(api.POST('/api/v1/webhook-endpoints/{id}/test', { params: { path: { id } } }))
                  }
                  invalidates={[['webhook-deliveries', id]]}
                />
              </Can>
              {secret ? <SecretOnce secret={secret} onDismiss={() => setSecret(null)} /> : null}
            </Section>
            <Deliveries id={id} />
          </>
        )}
      </QueryState>
    </>
  );
}

function Deliveries({ id }: { id: string }) {
  const api = useApi();
  const [page, setPage] = useState(1);
  const deliveries = useQuery({
    queryKey: ['webhook-deliveries', id, page],
    queryFn: () =>
      ok(
        api.GET('/api/v1/webhook-endpoints/{id}/deliveries', {
          params: { path: { id }, query: { page, per_page: 25 } },
        }),
      ),
    refetchInterval: 3000,
  });
  return (
    <Section title="Recent deliveries">
      <QueryState isPending={deliveries.isPending} error={deliveries.error}>
        {() => (
          <ResourceTable<Delivery>
            caption="Deliveries"
            rows={deliveries.data!.data}
            meta={deliveries.data!.meta as PageMeta}
            page={page}
            onPage={setPage}
            rowKey={(delivery) => delivery.id}
            columns={[
              { header: 'Event type', cell: (delivery) => delivery.event_type },
              { header: 'Status', cell: (delivery) => <StateBadge status={delivery.status} /> },
              { header: 'Attempts', cell: (delivery) => delivery.attempts.length },
              {
                header: 'Response status',
                cell: (delivery) => lastAttempt(delivery)?.response_status ?? '—',
              },
              {
                header: 'Response body',
                cell: (delivery) => {
                  const attempt = lastAttempt(delivery);
                  const body = attempt?.response_body ?? attempt?.error ?? null;
                  return body ? (
                    <Code
                      block
                      tabIndex={0}
                      aria-label={`Response body of delivery ${delivery.id}`}
                      style={{
                        maxHeight: 120,
                        maxWidth: 280,
                        overflow: 'auto',
                        whiteSpace: 'pre-wrap',
                        overflowWrap: 'anywhere',
                      }}
                    >
                      {body}
                    </Code>
                  ) : (
                    '—'
                  );
                },
              },
              { header: 'Created', cell: (delivery) => <Time at={delivery.created_at} /> },
              { header: 'Next attempt', cell: (delivery) => <Time at={delivery.next_attempt_at} /> },
              {
                header: 'Actions',
                cell: (delivery) => (
                  <Can permission="create">
                    <ActionButton
                      label="Redeliver"
                      action={() =>
                        ok(
                          api.POST('/api/v1/webhook-endpoints/{id}/deliveries/{delivery_id}/redeliver', {
                            params: { path: { id, delivery_id: delivery.id } },
                          }),
                        )
                      }
                      invalidates={[['webhook-deliveries', id]]}
                    />
                  </Can>
                ),
              },
            ]}
          />
        )}
      </QueryState>
    </Section>
  );
}

function lastAttempt(delivery: Delivery): Schema<'WebhookAttempt'> | undefined {
  return delivery.attempts[delivery.attempts.length - 1];
}

export const routes: RouteObject[] = [
  { path: 'webhook-endpoints', element: <WebhookEndpointsPage /> },
  { path: 'webhook-endpoints/:id', element: <WebhookEndpointPage /> },
];
