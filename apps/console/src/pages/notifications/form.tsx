import { JsonInput, NumberInput, Select, SimpleGrid, Switch, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import { ok, type Schema } from '../../api';
import { ApiForm, parseJson, useSubmit } from '../../components/forms';
import { useApi } from '../../session';

export type Notification = Schema<'Notification'>;
type Route = NonNullable<Notification['route']>;

const SHOWN = [
  'name',
  'template_id',
  'target_group_id',
  'variables',
  'route',
  'schedule',
  'schedule_timezone',
  'purpose',
  'throttle_per_minute',
  'enabled',
];

/** Creates a notification, or (given one) changes it with a PATCH. */
export function NotificationForm({
  notification,
  onSaved,
}: {
  notification?: Notification;
  onSaved?(saved: Notification): void;
}) {
  const api = useApi();
  const templates = useQuery({
    queryKey: ['templates', 'options'],
    queryFn: () => ok(api.GET('/api/v1/templates', { params: { query: { per_page: 100 } } })),
  });
  const audiences = useQuery({
    queryKey: ['audiences', 'options'],
    queryFn: () => ok(api.GET('/api/v1/audiences', { params: { query: { per_page: 100 } } })),
  });
  const [name, setName] = useState(notification?.name ?? '');
  const [templateId, setTemplateId] = useState<string | null>(
    notification ? String(notification.template_id) : null,
  );
  const [audienceId, setAudienceId] = useState<string | null>(
    notification ? String(notification.target_group_id) : null,
  );
  const [variables, setVariables] = useState(
    notification ? JSON.stringify(notification.variables, null, 2) : '{}',
  );
  const [route, setRoute] = useState(notification?.route ? JSON.stringify(notification.route, null, 2) : '');
  const [schedule, setSchedule] = useState(notification?.schedule ?? '');
  const [timezone, setTimezone] = useState(notification?.schedule_timezone ?? 'UTC');
  const [purpose, setPurpose] = useState<string | null>(notification?.purpose ?? 'marketing');
  const [throttle, setThrottle] = useState<string | number>(notification?.throttle_per_minute ?? '');
  const [enabled, setEnabled] = useState(notification?.enabled ?? true);

  const save = useSubmit(
    async () => {
      const body = {
        name,
        template_id: Number(templateId),
        target_group_id: Number(audienceId),
        variables: (parseJson(variables, 'Variables') ?? {}) as Record<string, unknown>,
        route: (parseJson(route, 'Route') ?? null) as Route | null,
        schedule: schedule.trim() === '' ? null : schedule.trim(),
        schedule_timezone: timezone,
        purpose: (purpose ?? 'marketing') as Notification['purpose'],
        throttle_per_minute: throttle === '' ? null : Number(throttle),
        enabled,
      };
      const answer = notification
        ? await ok(
            api.PATCH('/api/v1/notifications/{id}', { params: { path: { id: notification.id } }, body }),
          )
        : await ok(api.POST('/api/v1/notifications', { body }));
      return answer.data;
    },
    {
      invalidates: [['notifications'], ['notification']],
      onSuccess: (saved) => {
        if (!notification) {
          setName('');
          setVariables('{}');
          setRoute('');
          setSchedule('');
          setThrottle('');
        }
        onSaved?.(saved);
      },
    },
  );

  return (
    <ApiForm
      label={notification ? `Edit the notification ${notification.name}` : 'New notification'}
      onSubmit={() => save.mutate(undefined)}
      error={save.error}
      shown={SHOWN}
      submitLabel={notification ? 'Save' : 'Create notification'}
      pending={save.isPending}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Name"
          required
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={save.problems.field('name')}
        />
        <Select
          label="Template"
          required
          searchable
          data={(templates.data?.data ?? []).map((template) => ({
            value: String(template.id),
            label: template.name,
          }))}
          value={templateId}
          onChange={setTemplateId}
          error={save.problems.field('template_id')}
        />
        <Select
          label="Audience"
          required
          searchable
          data={(audiences.data?.data ?? []).map((audience) => ({
            value: String(audience.id),
            label: audience.name,
          }))}
          value={audienceId}
          onChange={setAudienceId}
          error={save.problems.field('target_group_id')}
        />
        <Select
          label="Purpose"
          data={['marketing', 'transactional']}
          value={purpose}
          onChange={setPurpose}
          allowDeselect={false}
          error={save.problems.field('purpose')}
        />
        <TextInput
          label="Schedule"
          description="Empty: sent only when asked. An ISO 8601 time with its offset, or a cron expression of five fields."
          value={schedule}
          onChange={(event) => setSchedule(event.currentTarget.value)}
          error={save.problems.field('schedule')}
        />
        <TextInput
          label="Time zone"
          description="The IANA time zone a cron schedule is read in, such as Europe/Berlin."
          value={timezone}
          onChange={(event) => setTimezone(event.currentTarget.value)}
          error={save.problems.field('schedule_timezone')}
        />
        <NumberInput
          label="Throttle per minute"
          description="Empty: no bound of its own."
          min={1}
          max={1000000}
          value={throttle}
          onChange={setThrottle}
          error={save.problems.field('throttle_per_minute')}
        />
        <Switch
          label="Enabled"
          checked={enabled}
          onChange={(event) => setEnabled(event.currentTarget.checked)}
          error={save.problems.field('enabled')}
          mt="lg"
        />
      </SimpleGrid>
      <JsonInput
        label="Variables (JSON)"
        autosize
        minRows={3}
        value={variables}
        onChange={setVariables}
        error={save.problems.field('variables')}
      />
      <JsonInput
        label="Route (JSON)"
        description={`Empty: the template's channel type, its default channel. Else 1 to 4 steps: [{"channel_id": 1, "template_id": 2}].`}
        autosize
        minRows={2}
        value={route}
        onChange={setRoute}
        error={save.problems.field('route')}
      />
    </ApiForm>
  );
}
