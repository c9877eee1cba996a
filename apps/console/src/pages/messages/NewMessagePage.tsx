import { Button, Group, JsonInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';

import { ok, type Schema } from '../../api';
import { ApiForm, parseJson, useSubmit } from '../../components/forms';
import { PageHeader, Section, To } from '../../components/ui';
import { Can, useApi } from '../../session';
import { CHANNEL_TYPES, type ChannelType } from './shared';

type RouteStep = Schema<'RouteStepBody'>;

interface StepDraft {
  /** `type:<channel type>` (the workspace's default channel of the type) or `id:<channel id>`. */
  channel: string;
  template: string | null;
  waitFor: string | null;
  timeout: string;
}

const newStep = (): StepDraft => ({ channel: 'type:sms', template: null, waitFor: null, timeout: '' });

function newIdempotencyKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(16).slice(2)}`;
}

/** POST /api/v1/messages: one message to a contact along a route of 1–4 steps. */
export function NewMessagePage() {
  const api = useApi();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [contactId, setContactId] = useState(search.get('contact_id') ?? '');
  const [steps, setSteps] = useState<StepDraft[]>([newStep()]);
  const [variables, setVariables] = useState('');
  const [purpose, setPurpose] = useState<string>('transactional');
  // One key per attempt to send: a retry after a network failure cannot send the message twice.
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);

  const channels = useQuery({
    queryKey: ['channels', 'all'],
    queryFn: () => ok(api.GET('/api/v1/channels', { params: { query: { per_page: 100 } } })),
  });
  const templates = useQuery({
    queryKey: ['templates', 'all'],
    queryFn: () => ok(api.GET('/api/v1/templates', { params: { query: { per_page: 100 } } })),
  });

  const typeOf = (choice: string): ChannelType | undefined => {
    if (choice.startsWith('type:')) return choice.slice(5) as ChannelType;
    return channels.data?.data.find((channel) => `id:${channel.id}` === choice)?.type;
  };

  const send = useSubmit(
    () => {
      const parsed = parseJson(variables, 'Variables') as Record<string, unknown> | undefined;
      const route: RouteStep[] = steps.map((step) => ({
        ...(step.channel.startsWith('id:')
          ? { channel_id: Number(step.channel.slice(3)) }
          : { channel: step.channel.slice(5) as ChannelType }),
        template_id: Number(step.template ?? NaN),
        ...(step.waitFor ? { wait_for: step.waitFor as RouteStep['wait_for'] } : {}),
        ...(step.timeout.trim() ? { timeout: step.timeout.trim() } : {}),
      }));
      return ok(
        api.POST('/api/v1/messages', {
          params: { header: { 'Idempotency-Key': idempotencyKey } },
          body: {
            contact_id: Number(contactId),
            route,
            ...(parsed !== undefined ? { variables: parsed } : {}),
            purpose: purpose as 'transactional' | 'marketing',
          },
        }),
      );
    },
    {
      invalidates: [['messages']],
      onSuccess: (result) => {
        setIdempotencyKey(newIdempotencyKey());
        void navigate(`/messages/${result.data.id}`);
      },
    },
  );
  const p = send.problems;
  const update = (index: number, change: Partial<StepDraft>) =>
    setSteps(steps.map((step, at) => (at === index ? { ...step, ...change } : step)));
  const shown = [
    'contact_id',
    'variables',
    'purpose',
    ...steps.flatMap((_, index) => [
      `route.${index}.channel`,
      `route.${index}.channel_id`,
      `route.${index}.template_id`,
      `route.${index}.wait_for`,
      `route.${index}.timeout`,
    ]),
  ];

  const channelOptions = [
    {
      group: 'Default channel of a type',
      items: CHANNEL_TYPES.map((type) => ({ value: `type:${type}`, label: `Default ${type} channel` })),
    },
    {
      group: 'A channel',
      items: (channels.data?.data ?? []).map((channel) => ({
        value: `id:${channel.id}`,
        label: `${channel.name} (${channel.type}, ${channel.status})`,
      })),
    },
  ];

  return (
    <>
      <PageHeader
        title="Send message"
        description={
          <>
            Sends along a route: the next step goes out when the previous one fails or its wait runs out.{' '}
            <To to="/messages">All messages</To>
          </>
        }
      />
      <Can permission="create">
        <Section title="Message">
          <ApiForm
            label="Send message"
            onSubmit={() => send.mutate(undefined)}
            error={send.error}
            shown={shown}
            submitLabel="Send message"
            pending={send.isPending}
          >
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
              <TextInput
                label="Contact ID"
                inputMode="numeric"
                value={contactId}
                onChange={(event) => setContactId(event.currentTarget.value)}
                error={p.field('contact_id')}
              />
              <Select
                label="Purpose"
                data={[
                  { value: 'transactional', label: 'Transactional' },
                  { value: 'marketing', label: 'Marketing (needs consent)' },
                ]}
                value={purpose}
                allowDeselect={false}
                onChange={(next) => setPurpose(next ?? 'transactional')}
                error={p.field('purpose')}
              />
            </SimpleGrid>
            {steps.map((step, index) => {
              const type = typeOf(step.channel);
              const suffix = index === 0 ? '' : ` (step ${index + 1})`;
              const stepTemplates = (templates.data?.data ?? []).filter(
                (template) => !type || template.channel === type,
              );
              return (
                <Stack
                  key={index}
                  gap="xs"
                  component="fieldset"
                  style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 4, padding: 8 }}
                >
                  <Text component="legend" size="sm" fw={600}>
                    {`Route step ${index + 1}${index === 0 ? '' : ' (fallback)'}`}
                  </Text>
                  <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
                    <Select
                      label={`Channel${suffix}`}
                      data={channelOptions}
                      value={step.channel}
                      allowDeselect={false}
                      searchable
                      onChange={(next) => update(index, { channel: next ?? 'type:sms', template: null })}
                      error={p.field(`route.${index}.channel`) ?? p.field(`route.${index}.channel_id`)}
                    />
                    <Select
                      label={`Template${suffix}`}
                      searchable
                      data={stepTemplates.map((template) => ({
                        value: String(template.id),
                        label: `${template.name} (${template.language}, #${template.id})`,
                      }))}
                      nothingFoundMessage={`No ${type ?? ''} template`}
                      value={step.template}
                      onChange={(next) => update(index, { template: next })}
                      error={p.field(`route.${index}.template_id`)}
                    />
                    <Select
                      label={`Wait for${suffix}`}
                      clearable
                      data={['sent', 'delivered', 'read']}
                      value={step.waitFor}
                      onChange={(next) => update(index, { waitFor: next })}
                      error={p.field(`route.${index}.wait_for`)}
                    />
                    <TextInput
                      label={`Timeout${suffix}`}
                      description="Such as 30s, 10m or 1h"
                      value={step.timeout}
                      onChange={(event) => update(index, { timeout: event.currentTarget.value })}
                      error={p.field(`route.${index}.timeout`)}
                    />
                  </SimpleGrid>
                  {index > 0 ? (
                    <Group>
                      <Button
                        variant="subtle"
                        color="red"
                        size="xs"
                        onClick={() => setSteps(steps.filter((_, at) => at !== index))}
                      >
                        {`Remove step ${index + 1}`}
                      </Button>
                    </Group>
                  ) : null}
                </Stack>
              );
            })}
            {steps.length < 4 ? (
              <Group>
                <Button variant="default" size="xs" onClick={() => setSteps([...steps, newStep()])}>
                  Add a fallback step
                </Button>
              </Group>
            ) : null}
            <JsonInput
              label="Variables (JSON object)"
              autosize
              minRows={3}
              value={variables}
              onChange={setVariables}
              error={p.field('variables')}
            />
          </ApiForm>
        </Section>
      </Can>
    </>
  );
}
