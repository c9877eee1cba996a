import { Button, Card, Checkbox, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';

import type { FormProblems } from '../../problems';
import {
  CHANNELS,
  FIELD_KINDS,
  LINK_CHANNELS,
  OPERATORS,
  OPERATOR_LABELS,
  initialValue,
  isCondition,
  joinField,
  newCondition,
  parseList,
  scalar,
  showScalar,
  splitField,
  type Condition,
  type FieldKind,
  type FilterNode,
} from './filter';

export interface Choice {
  id: number;
  name: string;
}

interface Context {
  problems: FormProblems;
  tags: readonly Choice[];
  audiences: readonly Choice[];
}

const MAX_DEPTH = 5;

/** The whole criteria (all must hold): conditions and nested all / any / not groups. */
export function FilterBuilder({
  criteria,
  onChange,
  problems,
  tags,
  audiences,
}: {
  criteria: FilterNode[];
  onChange(criteria: FilterNode[]): void;
  problems: FormProblems;
  tags: readonly Choice[];
  audiences: readonly Choice[];
}) {
  const context: Context = { problems, tags, audiences };
  return (
    <Stack gap="xs">
      <Text size="sm">
        A contact matches when <strong>every</strong> condition below holds (no condition: every contact).
      </Text>
      <NodeList items={criteria} onChange={onChange} path="filter_criteria" depth={1} context={context} />
    </Stack>
  );
}

function NodeList({
  items,
  onChange,
  path,
  depth,
  context,
}: {
  items: FilterNode[];
  onChange(items: FilterNode[]): void;
  path: string;
  depth: number;
  context: Context;
}) {
  const error = context.problems.all
    .filter((entry) => entry.field === path)
    .map((entry) => entry.message)
    .join(' ');
  return (
    <Stack gap="xs">
      {items.map((node, index) => (
        <NodeEditor
          key={index}
          node={node}
          path={`${path}.${index}`}
          depth={depth}
          context={context}
          onChange={(next) => onChange(items.map((item, at) => (at === index ? next : item)))}
          onRemove={() => onChange(items.filter((_, at) => at !== index))}
        />
      ))}
      {error ? (
        <Text size="sm" c="red.9" role="alert">
          {error}
        </Text>
      ) : null}
      <AddButtons depth={depth} onAdd={(node) => onChange([...items, node])} />
    </Stack>
  );
}

function AddButtons({ depth, onAdd }: { depth: number; onAdd(node: FilterNode): void }) {
  return (
    <Group gap="xs" wrap="wrap">
      <Button size="xs" variant="light" onClick={() => onAdd(newCondition())}>
        Add condition
      </Button>
      {depth < MAX_DEPTH ? (
        <>
          <Button size="xs" variant="default" onClick={() => onAdd({ any: [newCondition()] })}>
            Add any group
          </Button>
          <Button size="xs" variant="default" onClick={() => onAdd({ all: [newCondition()] })}>
            Add all group
          </Button>
          <Button size="xs" variant="default" onClick={() => onAdd({ not: newCondition() })}>
            Add not group
          </Button>
        </>
      ) : null}
    </Group>
  );
}

type GroupKind = 'all' | 'any' | 'not';

function groupKind(node: FilterNode): GroupKind | null {
  if ('all' in node && Array.isArray(node.all)) return 'all';
  if ('any' in node && Array.isArray(node.any)) return 'any';
  if ('not' in node) return 'not';
  return null;
}

function NodeEditor({
  node,
  onChange,
  onRemove,
  path,
  depth,
  context,
}: {
  node: FilterNode;
  onChange(node: FilterNode): void;
  onRemove(): void;
  path: string;
  depth: number;
  context: Context;
}) {
  if (isCondition(node)) {
    return (
      <ConditionEditor
        condition={node}
        onChange={onChange}
        onRemove={onRemove}
        path={path}
        context={context}
      />
    );
  }
  const kind = groupKind(node);
  if (!kind) {
    return (
      <Card withBorder padding="xs">
        <Text size="sm">Not a condition or group the builder knows: edit it in the JSON below.</Text>
        <Text size="sm" c="red.9">
          {context.problems.field(path)}
        </Text>
        <Button size="xs" color="red" variant="light" onClick={onRemove} mt="xs">
          Remove
        </Button>
      </Card>
    );
  }
  const children: FilterNode[] =
    kind === 'not'
      ? [(node as { not: FilterNode }).not]
      : (node as Record<'all' | 'any', FilterNode[]>)[kind];
  const changeKind = (next: GroupKind) => {
    if (next === kind) return;
    if (next === 'not') onChange({ not: children[0] ?? newCondition() });
    else onChange({ [next]: children.length > 0 ? children : [newCondition()] } as FilterNode);
  };
  return (
    <Card withBorder padding="xs" component="fieldset" style={{ margin: 0 }}>
      <Stack gap="xs">
        <Group gap="xs" wrap="wrap" align="flex-end">
          <NativeSelect
            label="Group"
            size="xs"
            data={[
              { value: 'all', label: 'all of (and)' },
              { value: 'any', label: 'any of (or)' },
              { value: 'not', label: 'not' },
            ]}
            value={kind}
            onChange={(event) => changeKind(event.currentTarget.value as GroupKind)}
          />
          <Button
            size="xs"
            color="red"
            variant="light"
            onClick={onRemove}
            aria-label={`Remove group: ${kind}`}
          >
            Remove group
          </Button>
        </Group>
        <div style={{ paddingLeft: 12, borderLeft: '3px solid var(--mantine-color-gray-4)' }}>
          {kind === 'not' ? (
            <NodeEditor
              node={children[0] ?? newCondition()}
              path={`${path}.not`}
              depth={depth + 1}
              context={context}
              onChange={(child) => onChange({ not: child })}
              onRemove={() => onChange({ not: newCondition() })}
            />
          ) : (
            <NodeList
              items={children}
              path={`${path}.${kind}`}
              depth={depth + 1}
              context={context}
              onChange={(items) => onChange({ [kind]: items } as FilterNode)}
            />
          )}
        </div>
      </Stack>
    </Card>
  );
}

const REST_LABEL: Partial<Record<FieldKind, string>> = {
  data: 'Data path',
  event: 'Event',
};

function ConditionEditor({
  condition,
  onChange,
  onRemove,
  path,
  context,
}: {
  condition: Condition;
  onChange(condition: Condition): void;
  onRemove(): void;
  path: string;
  context: Context;
}) {
  const { kind, rest } = splitField(condition.field ?? '');
  const operators = kind ? OPERATORS[kind] : [];
  const setKind = (next: FieldKind) => onChange(newCondition(next));
  const setRest = (next: string) => {
    if (!kind) return;
    onChange({ ...condition, field: joinField(kind, next) });
  };
  const setOperator = (operator: string) => {
    const { value: _old, ...withoutValue } = condition;
    void _old;
    onChange({ ...withoutValue, operator, ...initialValue(kind, operator) });
  };
  const { problems } = context;
  return (
    <Card withBorder padding="xs">
      <Group gap="xs" wrap="wrap" align="flex-start">
        <NativeSelect
          label="Field"
          size="xs"
          data={[
            ...(kind ? [] : [{ value: '', label: condition.field || '(unknown field)' }]),
            ...FIELD_KINDS.map((field) => ({ value: field.value, label: field.label })),
          ]}
          value={kind ?? ''}
          onChange={(event) => setKind(event.currentTarget.value as FieldKind)}
          error={problems.field(`${path}.field`)}
        />
        {kind === 'data' || kind === 'event' ? (
          <TextInput
            label={REST_LABEL[kind]}
            size="xs"
            value={rest}
            onChange={(event) => setRest(event.currentTarget.value)}
            description={kind === 'data' ? 'e.g. plan or address.city' : 'e.g. order_placed'}
          />
        ) : null}
        {kind === 'consent' || kind === 'channel' ? (
          <NativeSelect
            label={kind === 'consent' ? 'Consent channel' : 'Linked channel'}
            size="xs"
            data={(kind === 'consent' ? CHANNELS : LINK_CHANNELS).map((value) => ({ value, label: value }))}
            value={rest}
            onChange={(event) => setRest(event.currentTarget.value)}
          />
        ) : null}
        <NativeSelect
          label="Operator"
          size="xs"
          data={[
            ...(operators.includes(condition.operator)
              ? []
              : [{ value: condition.operator ?? '', label: condition.operator || '(none)' }]),
            ...operators.map((operator) => ({
              value: operator,
              label: `${OPERATOR_LABELS[operator]} (${operator})`,
            })),
          ]}
          value={condition.operator ?? ''}
          onChange={(event) => setOperator(event.currentTarget.value)}
          error={problems.field(`${path}.operator`)}
        />
        <ValueEditor
          key={`${condition.field}|${condition.operator}`}
          kind={kind}
          condition={condition}
          onChange={onChange}
          error={problems.field(`${path}.value`)}
          context={context}
        />
        <Button
          size="xs"
          color="red"
          variant="subtle"
          onClick={onRemove}
          aria-label={`Remove the condition on ${condition.field || 'a field'}`}
          mt={22}
        >
          Remove
        </Button>
      </Group>
      {(() => {
        const other = problems.all
          .filter((entry) => entry.field === path)
          .map((entry) => entry.message)
          .join(' ');
        return other ? (
          <Text size="sm" c="red.9" role="alert">
            {other}
          </Text>
        ) : null;
      })()}
    </Card>
  );
}

function withValue(condition: Condition, value: unknown): Condition {
  if (value === undefined) {
    const { value: _old, ...rest } = condition;
    void _old;
    return rest;
  }
  return { ...condition, value };
}

function ValueEditor({
  kind,
  condition,
  onChange,
  error,
  context,
}: {
  kind: FieldKind | null;
  condition: Condition;
  onChange(condition: Condition): void;
  error: string | undefined;
  context: Context;
}) {
  const { operator, value } = condition;
  const set = (next: unknown) => onChange(withValue(condition, next));
  const [text, setText] = useState(() =>
    Array.isArray(value) ? value.map(showScalar).join(', ') : showScalar(value),
  );
  const [low, setLow] = useState(() => (Array.isArray(value) ? showScalar(value[0]) : ''));
  const [high, setHigh] = useState(() => (Array.isArray(value) ? showScalar(value[1]) : ''));

  if (['exists', 'not_exists'].includes(operator)) return null;

  if (kind === 'event') {
    const object = (value && typeof value === 'object' ? value : {}) as {
      count?: unknown;
      within_last?: unknown;
    };
    const counted = operator === 'count_gte' || operator === 'count_lte';
    const update = (part: { count?: unknown; within_last?: unknown }) => {
      const next: Record<string, unknown> = { ...object, ...part };
      for (const key of Object.keys(next)) if (next[key] === '' || next[key] === undefined) delete next[key];
      set(Object.keys(next).length > 0 ? next : undefined);
    };
    return (
      <>
        {counted ? (
          <TextInput
            label="Count"
            size="xs"
            inputMode="numeric"
            value={showScalar(object.count)}
            onChange={(event) => {
              const raw = event.currentTarget.value;
              update({ count: raw === '' ? undefined : /^\d+$/.test(raw) ? Number(raw) : raw });
            }}
            error={error}
          />
        ) : null}
        <TextInput
          label="Within last (optional)"
          description="ISO 8601 duration, e.g. P30D"
          size="xs"
          value={showScalar(object.within_last)}
          onChange={(event) => update({ within_last: event.currentTarget.value })}
          error={counted ? undefined : error}
        />
      </>
    );
  }

  if (kind === 'consent') {
    return (
      <NativeSelect
        label="Value"
        size="xs"
        data={[
          { value: 'true', label: 'true (given)' },
          { value: 'false', label: 'false (refused)' },
          { value: 'null', label: 'null (never recorded)' },
        ]}
        value={value === null ? 'null' : String(value)}
        onChange={(event) => {
          const raw = event.currentTarget.value;
          set(raw === 'null' ? null : raw === 'true');
        }}
        error={error}
      />
    );
  }

  if (kind === 'tags' && operator === 'has') {
    return (
      <NativeSelect
        label="Tag"
        size="xs"
        data={[
          { value: '', label: 'Choose a tag' },
          ...context.tags.map((tag) => ({ value: String(tag.id), label: `${tag.name} (${tag.id})` })),
        ]}
        value={showScalar(value)}
        onChange={(event) => set(event.currentTarget.value === '' ? '' : Number(event.currentTarget.value))}
        error={error}
      />
    );
  }

  if (kind === 'tags' || kind === 'audience') {
    const known = kind === 'tags' ? context.tags : context.audiences;
    const currentIds = (
      Array.isArray(value) ? value : value === '' || value === undefined ? [] : [value]
    ).map(Number);
    // Ids the filter names that the lists do not hold still show (checked), so they can be unticked.
    const choices = [
      ...known,
      ...currentIds
        .filter((id) => !known.some((choice) => choice.id === id))
        .map((id) => ({ id, name: kind === 'tags' ? `Tag ${id}` : `Audience ${id}` })),
    ];
    const selected = (Array.isArray(value) ? value : value === '' || value === undefined ? [] : [value]).map(
      String,
    );
    return (
      <Checkbox.Group
        label={kind === 'tags' ? 'Tags' : 'Audiences'}
        size="xs"
        value={selected}
        onChange={(ids) => set(ids.map(Number))}
        error={error}
      >
        <Group gap="xs" mt={4} wrap="wrap">
          {choices.length === 0 ? (
            <Text size="xs" c="dimmed">
              None to choose from.
            </Text>
          ) : (
            choices.map((choice) => (
              <Checkbox key={choice.id} value={String(choice.id)} label={`${choice.name} (${choice.id})`} />
            ))
          )}
        </Group>
      </Checkbox.Group>
    );
  }

  if (operator === 'between') {
    const parse = (raw: string) => (kind === 'data' ? scalar(raw) : raw);
    return (
      <>
        <TextInput
          label="From"
          size="xs"
          value={low}
          onChange={(event) => {
            setLow(event.currentTarget.value);
            set([parse(event.currentTarget.value), parse(high)]);
          }}
          error={error}
        />
        <TextInput
          label="To"
          size="xs"
          value={high}
          onChange={(event) => {
            setHigh(event.currentTarget.value);
            set([parse(low), parse(event.currentTarget.value)]);
          }}
        />
      </>
    );
  }

  if (operator === 'in' || operator === 'not_in') {
    return (
      <TextInput
        label="Values"
        description="Comma-separated"
        size="xs"
        value={text}
        onChange={(event) => {
          setText(event.currentTarget.value);
          set(parseList(event.currentTarget.value, kind));
        }}
        error={error}
      />
    );
  }

  if (['within_last', 'not_within_last', 'within_next'].includes(operator)) {
    return (
      <TextInput
        label="Duration"
        description="ISO 8601, e.g. P30D or PT12H"
        size="xs"
        value={text}
        onChange={(event) => {
          setText(event.currentTarget.value);
          set(event.currentTarget.value);
        }}
        error={error}
      />
    );
  }

  const isDate = operator === 'before' || operator === 'after';
  return (
    <TextInput
      label="Value"
      description={
        isDate
          ? 'YYYY-MM-DD or an ISO 8601 time'
          : kind === 'data'
            ? 'Numbers and true/false are sent as such'
            : undefined
      }
      size="xs"
      value={text}
      onChange={(event) => {
        setText(event.currentTarget.value);
        set(kind === 'data' && !isDate ? scalar(event.currentTarget.value) : event.currentTarget.value);
      }}
      error={error}
    />
  );
}
