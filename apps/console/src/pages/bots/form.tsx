import {
  Group,
  JsonInput,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';

import { ok, type Schema } from '../../api';
import { ApiForm, useSubmit } from '../../components/forms';
import { useApi } from '../../session';
import { jsonAt, jsonText } from '../workflows/json';

/** Text and error of a JSON editor in colours that keep 4.5:1 on white, also while it shows an error. */
const READABLE = {
  input: { color: 'var(--mantine-color-black)' },
  error: { color: 'var(--mantine-color-red-9)' },
};

export type Bot = Schema<'Bot'>;

/** The placeholder of the Steps editor: a flow of one step. */
export const FLOW_EXAMPLE = JSON.stringify(
  [{ id: 'hello', type: 'message', text: 'Hello! How can we help?' }],
  null,
  2,
);

const SHOWN = [
  'name',
  'description',
  'mode',
  'trigger_type',
  'trigger_value',
  'target_group_id',
  'settings',
  'ai_instructions',
  'ai_temperature',
  'ai_max_tokens',
  'flow_definition',
  'enabled',
] as const;

const numberOrNull = (value: number | string): number | null =>
  typeof value === 'number' ? value : value.trim() === '' ? null : Number(value);

/** Creates a bot of either mode, or (given one) changes it with PATCH. */
export function BotForm({ bot, onSaved }: { bot?: Bot; onSaved?(saved: Bot): void }) {
  const api = useApi();
  const [name, setName] = useState(bot?.name ?? '');
  const [description, setDescription] = useState(bot?.description ?? '');
  const [mode, setMode] = useState<string>(bot?.mode ?? 'flow');
  const [triggerType, setTriggerType] = useState<string>(bot?.trigger_type ?? 'keyword');
  const [triggerValue, setTriggerValue] = useState(bot?.trigger_value ?? '');
  const [targetGroup, setTargetGroup] = useState<number | string>(bot?.target_group_id ?? '');
  const [channelId, setChannelId] = useState<number | string>(bot?.settings.channel_id ?? '');
  const [cron, setCron] = useState(bot?.settings.schedule_cron ?? '');
  const [timezone, setTimezone] = useState(bot?.settings.schedule_timezone ?? '');
  const [enabled, setEnabled] = useState(bot?.enabled ?? true);
  const [instructions, setInstructions] = useState(bot?.ai_instructions ?? '');
  const [temperature, setTemperature] = useState<number | string>(bot?.ai_temperature ?? '');
  const [maxTokens, setMaxTokens] = useState<number | string>(bot?.ai_max_tokens ?? '');
  const [steps, setSteps] = useState(jsonText(bot?.flow_definition?.steps));
  const save = useSubmit(
    async () => {
      const settings: Record<string, unknown> = { ...(bot?.settings ?? {}) };
      settings.channel_id = numberOrNull(channelId);
      settings.schedule_cron = cron.trim() === '' ? null : cron;
      settings.schedule_timezone = timezone.trim() === '' ? null : timezone;
      for (const key of Object.keys(settings)) if (settings[key] === null && !bot) delete settings[key];
      const body = {
        name,
        description: description.trim() === '' ? null : description,
        mode,
        trigger_type: triggerType,
        trigger_value: triggerValue.trim() === '' ? null : triggerValue,
        target_group_id: numberOrNull(targetGroup),
        settings,
        enabled,
        ...(mode === 'ai'
          ? {
              ai_instructions: instructions,
              ai_temperature: numberOrNull(temperature),
              ai_max_tokens: numberOrNull(maxTokens),
            }
          : { flow_definition: { steps: jsonAt(steps, 'flow_definition.steps', 'array') ?? [] } }),
      };
      const answer = bot
        ? await ok(api.PATCH('/api/v1/bots/{id}', { params: { path: { id: bot.id } }, body }))
        : await ok(api.POST('/api/v1/bots', { body }));
      return answer.data;
    },
    {
      invalidates: [['bots']],
      onSuccess: (saved) => {
        onSaved?.(saved);
        if (!bot) {
          setName('');
          setDescription('');
          setTriggerValue('');
          setInstructions('');
          setSteps('');
        }
      },
    },
  );
  const problem = save.problems.field;
  return (
    <ApiForm
      label={bot ? `Edit the bot ${bot.name}` : 'New bot'}
      onSubmit={() => save.mutate(undefined)}
      error={save.error}
      shown={SHOWN}
      submitLabel={bot ? 'Save bot' : 'Create bot'}
      pending={save.isPending}
    >
      <Stack gap="xs">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Name"
            required
            withAsterisk={false}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={problem('name')}
          />
          <TextInput
            label="Description"
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            error={problem('description')}
          />
          <Select
            label="Mode"
            required
            data={[
              { value: 'flow', label: 'flow: scripted steps' },
              { value: 'ai', label: 'ai: answered by the model' },
            ]}
            value={mode}
            allowDeselect={false}
            onChange={(value) => value && setMode(value)}
            error={problem('mode')}
          />
          <Select
            label="Trigger type"
            required
            data={[
              { value: 'keyword', label: 'keyword' },
              { value: 'any_message', label: 'any_message' },
              { value: 'event', label: 'event' },
              { value: 'schedule', label: 'schedule' },
            ]}
            value={triggerType}
            allowDeselect={false}
            onChange={(value) => value && setTriggerType(value)}
            error={problem('trigger_type')}
          />
          {triggerType === 'keyword' || triggerType === 'event' ? (
            <TextInput
              label={triggerType === 'keyword' ? 'Keyword (trigger value)' : 'Event name (trigger value)'}
              required
              value={triggerValue}
              onChange={(e) => setTriggerValue(e.currentTarget.value)}
              error={problem('trigger_value')}
            />
          ) : null}
          <NumberInput
            label="Audience ID (target group)"
            description={
              triggerType === 'schedule' ? 'Required for a schedule' : 'Optional: only its members'
            }
            value={targetGroup}
            onChange={setTargetGroup}
            min={1}
            allowDecimal={false}
            error={problem('target_group_id')}
          />
          <NumberInput
            label="Channel ID"
            description={
              triggerType === 'event' || triggerType === 'schedule'
                ? 'Required: the channel it starts on'
                : 'Optional: limits the bot to it'
            }
            value={channelId}
            onChange={setChannelId}
            min={1}
            allowDecimal={false}
            error={problem('settings.channel_id')}
          />
          {triggerType === 'schedule' ? (
            <>
              <TextInput
                label="Schedule cron (five fields)"
                required
                value={cron}
                onChange={(e) => setCron(e.currentTarget.value)}
                error={problem('settings.schedule_cron')}
              />
              <TextInput
                label="Schedule time zone"
                description="An IANA name; UTC when empty"
                value={timezone}
                onChange={(e) => setTimezone(e.currentTarget.value)}
                error={problem('settings.schedule_timezone')}
              />
            </>
          ) : null}
          <Group align="flex-end">
            <Switch
              label="Enabled"
              checked={enabled}
              onChange={(e) => setEnabled(e.currentTarget.checked)}
              error={problem('enabled')}
            />
          </Group>
        </SimpleGrid>
        {(() => {
          const other = save.problems.all
            .filter(
              (entry) =>
                entry.field?.startsWith('settings.') &&
                !['settings.channel_id', 'settings.schedule_cron', 'settings.schedule_timezone'].includes(
                  entry.field,
                ),
            )
            .concat(save.problems.all.filter((entry) => entry.field === 'settings'));
          return other.length > 0 ? (
            <TextInput
              label="Settings"
              readOnly
              value={JSON.stringify(bot?.settings ?? {})}
              error={other.map((entry) => entry.message).join(' ')}
            />
          ) : null;
        })()}
        {mode === 'ai' ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Textarea
              label="AI instructions"
              required
              autosize
              minRows={3}
              value={instructions}
              onChange={(e) => setInstructions(e.currentTarget.value)}
              error={problem('ai_instructions')}
            />
            <Stack gap="xs">
              <NumberInput
                label="AI temperature"
                value={temperature}
                onChange={setTemperature}
                min={0}
                max={2}
                step={0.1}
                decimalScale={2}
                error={problem('ai_temperature')}
              />
              <NumberInput
                label="AI max tokens"
                value={maxTokens}
                onChange={setMaxTokens}
                min={1}
                allowDecimal={false}
                error={problem('ai_max_tokens')}
              />
            </Stack>
          </SimpleGrid>
        ) : (
          <JsonInput
            label="Steps"
            description="The flow's whole steps array (JSON): message, question, branch, tag, end; each with a unique id"
            value={steps}
            onChange={setSteps}
            placeholder={FLOW_EXAMPLE}
            autosize
            minRows={6}
            maxRows={30}
            validationError="Not valid JSON"
            styles={READABLE}
            error={problem('flow_definition')}
          />
        )}
      </Stack>
    </ApiForm>
  );
}
