import { Group, JsonInput, Select, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useState } from 'react';

import { ApiError, ok, type Schema } from '../../api';
import { ApiForm, useSubmit } from '../../components/forms';
import { useApi } from '../../session';
import { jsonAt, jsonText } from './json';

/** Text and error of a JSON editor in colours that keep 4.5:1 on white, also while it shows an error. */
const READABLE = {
  input: { color: 'var(--mantine-color-black)' },
  error: { color: 'var(--mantine-color-red-9)' },
};

export type Workflow = Schema<'Workflow'>;

const SHOWN = ['name', 'enabled', 'trigger', 'goal', 're_entry', 'steps'] as const;

/** The placeholder of the Steps editor: a workflow of one step. */
export const STEPS_EXAMPLE = JSON.stringify(
  [
    {
      id: 'welcome',
      type: 'send',
      route: [{ channel_id: 1, template_id: 1 }],
      purpose: 'marketing',
    },
  ],
  null,
  2,
);

const GOAL_EXAMPLE = JSON.stringify({ event: 'order_placed', within: 'P7D' }, null, 2);

/**
 * Creates a workflow, or (given one) changes it with PATCH: before the PATCH the workflow is read again,
 * and a version other than the one the form was opened with refuses the save (someone else changed it).
 */
export function WorkflowForm({
  workflow,
  onSaved,
}: {
  workflow?: Workflow;
  onSaved?(saved: Workflow): void;
}) {
  const api = useApi();
  const [name, setName] = useState(workflow?.name ?? '');
  const [enabled, setEnabled] = useState(workflow?.enabled ?? true);
  const [event, setEvent] = useState(workflow?.trigger.event ?? '');
  const [filter, setFilter] = useState(jsonText(workflow?.trigger.filter ?? []));
  const [reEntry, setReEntry] = useState<string>(workflow?.re_entry ?? 'after_exit');
  const [goal, setGoal] = useState(jsonText(workflow?.goal));
  const [steps, setSteps] = useState(jsonText(workflow?.steps));
  const [savedVersion, setSavedVersion] = useState<number | null>(null);
  const save = useSubmit(
    async () => {
      const body = {
        name,
        enabled,
        trigger: { event, filter: jsonAt(filter, 'trigger.filter', 'array') ?? [] },
        steps: jsonAt(steps, 'steps', 'array') ?? [],
        goal: jsonAt(goal, 'goal', 'object') ?? null,
        re_entry: reEntry,
      };
      if (!workflow) return (await ok(api.POST('/api/v1/workflows', { body }))).data;
      const current = await ok(api.GET('/api/v1/workflows/{id}', { params: { path: { id: workflow.id } } }));
      if (current.data.version !== workflow.version) {
        throw new ApiError(409, [
          {
            status: '409',
            title: 'Changed meanwhile',
            detail: `This workflow is at version ${current.data.version} now, not version ${workflow.version} as when you opened the editor. Close the editor and open it again to edit the newest version.`,
          },
        ]);
      }
      return (await ok(api.PATCH('/api/v1/workflows/{id}', { params: { path: { id: workflow.id } }, body })))
        .data;
    },
    {
      invalidates: [['workflows']],
      onSuccess: (saved) => {
        setSavedVersion(saved.version);
        onSaved?.(saved);
        if (!workflow) {
          setName('');
          setEvent('');
          setFilter('[]');
          setGoal('');
          setSteps('');
        }
      },
    },
  );
  const problem = save.problems.field;
  return (
    <ApiForm
      label={workflow ? `Edit the workflow ${workflow.name}` : 'New workflow'}
      onSubmit={() => save.mutate(undefined)}
      error={save.error}
      shown={SHOWN}
      submitLabel={workflow ? 'Save workflow' : 'Create workflow'}
      pending={save.isPending}
    >
      <Stack gap="xs">
        {workflow ? (
          <Text size="sm" c="dimmed">
            Editing version {workflow.version}. A change of trigger, steps, goal or re-entry makes a new
            version; runs going on finish on theirs.
          </Text>
        ) : null}
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
            label="Event name"
            description="Required. The trigger: the event that starts a run"
            required
            withAsterisk={false}
            value={event}
            onChange={(e) => setEvent(e.currentTarget.value)}
            error={problem('trigger.event') ?? (problem('trigger.filter') ? undefined : problem('trigger'))}
          />
          <Select
            label="Re-entry"
            data={[
              { value: 'after_exit', label: 'after_exit: again once the last run ended' },
              { value: 'never', label: 'never: one run per contact ever' },
              { value: 'always', label: 'always: a new event replaces the run' },
            ]}
            value={reEntry}
            allowDeselect={false}
            onChange={(value) => value && setReEntry(value)}
            error={problem('re_entry')}
          />
          <Group align="flex-end">
            <Switch
              label="Enabled"
              checked={enabled}
              onChange={(e) => setEnabled(e.currentTarget.checked)}
              error={problem('enabled')}
            />
          </Group>
        </SimpleGrid>
        <JsonInput
          label="Filter"
          description="The trigger's criteria (JSON array) over the contact and event.data.<path>; [] holds for every contact"
          value={filter}
          onChange={setFilter}
          placeholder='[{"field": "data.country", "operator": "eq", "value": "FR"}]'
          autosize
          minRows={2}
          maxRows={10}
          validationError="Not valid JSON"
          styles={READABLE}
          error={problem('trigger.filter')}
        />
        <JsonInput
          label="Goal"
          description='JSON {"event": "<event name>", "within": "<ISO 8601 duration, at most P90D>"}; empty: no goal'
          value={goal}
          onChange={setGoal}
          placeholder={GOAL_EXAMPLE}
          autosize
          minRows={3}
          maxRows={8}
          validationError="Not valid JSON"
          styles={READABLE}
          error={problem('goal')}
        />
        <JsonInput
          label="Steps"
          description="The whole steps array (JSON): send, wait, branch, update_contact, exit; each with a unique id"
          value={steps}
          onChange={setSteps}
          placeholder={STEPS_EXAMPLE}
          autosize
          minRows={8}
          maxRows={30}
          validationError="Not valid JSON"
          styles={READABLE}
          error={problem('steps')}
        />
        {savedVersion !== null ? (
          <Text size="sm" role="status">
            Saved: the workflow is at version {savedVersion}.
          </Text>
        ) : null}
      </Stack>
    </ApiForm>
  );
}
