import {
  Button,
  Group,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { RouteObject } from 'react-router';

import { filled, ok, type PageMeta, type Schema } from '../../api';
import { ApiForm, useSubmit } from '../../components/forms';
import { ENABLED_CHOICES, SelectFilter, TextFilter, useListFilters } from '../../components/filters';
import { ConfirmButton, PageHeader, QueryState, ResourceTable, Section, Time } from '../../components/ui';
import { Can, useApi } from '../../session';
import { StatusBadge as StateBadge } from '../../components/ui';

type Rule = Schema<'AlertRule'>;
type Alert = Schema<'Alert'>;
type Metric = Rule['metric'];

const METRICS: Metric[] = ['failure_rate', 'suppression_rate', 'delivery_rate', 'failure_count'];
const COMPARATORS = [
  { value: 'gt', label: 'above (gt)' },
  { value: 'lt', label: 'below (lt)' },
];

function scopeText(scope: Schema<'AlertScope'>): string {
  const parts = Object.entries(scope).map(([key, value]) => `${key} ${String(value)}`);
  return parts.length ? parts.join(', ') : 'whole workspace';
}

function AlertRulesPage() {
  const api = useApi();
  const filters = useListFilters<{ metric: string | null; enabled: string | null }>({
    metric: null,
    enabled: null,
  });
  const { page, setPage } = filters;
  const { metric, enabled } = filters.values;
  const query = filled({
    page,
    per_page: 50,
    'filter[metric]': metric ?? '',
    'filter[enabled]': enabled ?? '',
  });
  const rules = useQuery({
    queryKey: ['alert-rules', query],
    queryFn: () => ok(api.GET('/api/v1/alert-rules', { params: { query } })),
  });
  return (
    <>
      <PageHeader
        title="Alert rules"
        description="A rule fires when a metric of the messages with an outcome in its window crosses its threshold."
      />
      <Can permission="create">
        <Section title="New alert rule">
          <RuleForm />
        </Section>
      </Can>
      <Section title="All alert rules">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <SelectFilter label="Metric" data={METRICS} value={metric} onChange={filters.set('metric')} />
          <SelectFilter
            label="Enabled"
            data={ENABLED_CHOICES}
            value={enabled}
            onChange={filters.set('enabled')}
          />
        </SimpleGrid>
        <QueryState isPending={rules.isPending} error={rules.error}>
          {() => (
            <ResourceTable<Rule>
              caption="Alert rules"
              rows={rules.data!.data}
              meta={rules.data!.meta as PageMeta}
              page={page}
              onPage={setPage}
              rowKey={(rule) => rule.id}
              columns={[
                { header: 'Name', cell: (rule) => rule.name },
                {
                  header: 'Condition',
                  cell: (rule) => `${rule.metric} ${rule.comparator} ${rule.threshold}`,
                },
                { header: 'Window', cell: (rule) => `${rule.window_minutes} min` },
                { header: 'Min volume', cell: (rule) => rule.min_volume },
                { header: 'Scope', cell: (rule) => scopeText(rule.scope) },
                {
                  header: 'Enabled',
                  cell: (rule) => <StateBadge status={rule.enabled ? 'enabled' : 'disabled'} />,
                },
                {
                  header: 'Actions',
                  cell: (rule) => (
                    <Group gap="xs" wrap="wrap">
                      <Can permission="update">
                        <EditRule rule={rule} />
                      </Can>
                      <Can permission="delete">
                        <ConfirmButton
                          label="Delete"
                          title={`Delete the alert rule ${rule.name}?`}
                          message="Its firing alert is resolved; its alerts stay readable."
                          action={() =>
                            ok(api.DELETE('/api/v1/alert-rules/{id}', { params: { path: { id: rule.id } } }))
                          }
                          invalidates={[['alert-rules'], ['alerts']]}
                        />
                      </Can>
                    </Group>
                  ),
                },
              ]}
            />
          )}
        </QueryState>
      </Section>
    </>
  );
}

function EditRule({ rule }: { rule: Rule }) {
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Button variant="default" size="sm" onClick={open} aria-label={`Edit the alert rule ${rule.name}`}>
        Edit
      </Button>
      <Modal opened={opened} onClose={close} title={`Edit the alert rule ${rule.name}`} centered size="lg">
        <RuleForm rule={rule} onSaved={close} />
      </Modal>
    </>
  );
}

function optionalNumber(value: string | number): number | undefined {
  return value === '' ? undefined : Number(value);
}

/** Creates an alert rule, or (given one) changes it. */
function RuleForm({ rule, onSaved }: { rule?: Rule; onSaved?(): void }) {
  const api = useApi();
  const [name, setName] = useState(rule?.name ?? '');
  const [metric, setMetric] = useState<string | null>(rule?.metric ?? 'failure_rate');
  const [comparator, setComparator] = useState<string | null>(rule?.comparator ?? 'gt');
  const [threshold, setThreshold] = useState<string | number>(rule?.threshold ?? '');
  const [windowMinutes, setWindowMinutes] = useState<string | number>(rule?.window_minutes ?? 15);
  const [minVolume, setMinVolume] = useState<string | number>(rule?.min_volume ?? '');
  const [channelId, setChannelId] = useState<string | number>(rule?.scope.channel_id ?? '');
  const [workflowId, setWorkflowId] = useState<string | number>(rule?.scope.workflow_id ?? '');
  const [campaignId, setCampaignId] = useState<string | number>(rule?.scope.campaign_id ?? '');
  const [enabled, setEnabled] = useState(rule?.enabled ?? true);
  const save = useSubmit(
    () => {
      const scope = Object.fromEntries(
        Object.entries({
          channel_id: optionalNumber(channelId),
          workflow_id: optionalNumber(workflowId),
          campaign_id: optionalNumber(campaignId),
        }).filter(([, value]) => value !== undefined),
      ) as Schema<'AlertScopeBody'>;
      const body = {
        name,
        metric: (metric ?? 'failure_rate') as Metric,
        comparator: (comparator ?? 'gt') as Rule['comparator'],
        threshold: Number(threshold),
        window_minutes: Number(windowMinutes),
        ...(minVolume === '' ? {} : { min_volume: Number(minVolume) }),
        scope,
        enabled,
      };
      return rule
        ? ok(api.PATCH('/api/v1/alert-rules/{id}', { params: { path: { id: rule.id } }, body }))
        : ok(api.POST('/api/v1/alert-rules', { body }));
    },
    {
      invalidates: [['alert-rules'], ['alerts']],
      onSuccess: () => {
        onSaved?.();
        if (!rule) {
          setName('');
          setThreshold('');
        }
      },
    },
  );
  return (
    <ApiForm
      label={rule ? `Edit the alert rule ${rule.name}` : 'New alert rule'}
      onSubmit={() => save.mutate(undefined)}
      error={save.error}
      shown={[
        'name',
        'metric',
        'comparator',
        'threshold',
        'window_minutes',
        'min_volume',
        'scope',
        'scope.channel_id',
        'scope.workflow_id',
        'scope.campaign_id',
        'enabled',
      ]}
      submitLabel={rule ? 'Save' : 'Create alert rule'}
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
          label="Metric"
          data={METRICS}
          allowDeselect={false}
          value={metric}
          onChange={setMetric}
          error={save.problems.field('metric')}
        />
        <Select
          label="Comparator"
          data={COMPARATORS}
          allowDeselect={false}
          value={comparator}
          onChange={setComparator}
          error={save.problems.field('comparator')}
        />
        <NumberInput
          label="Threshold"
          description="A rate in 0–1, or a whole number for failure_count."
          required
          decimalScale={4}
          value={threshold}
          onChange={setThreshold}
          error={save.problems.field('threshold')}
        />
        <NumberInput
          label="Window minutes"
          required
          min={1}
          value={windowMinutes}
          onChange={setWindowMinutes}
          error={save.problems.field('window_minutes')}
        />
        <NumberInput
          label="Min volume"
          min={0}
          value={minVolume}
          onChange={setMinVolume}
          error={save.problems.field('min_volume')}
        />
        <NumberInput
          label="Scope channel ID"
          value={channelId}
          onChange={setChannelId}
          error={save.problems.field('scope.channel_id') ?? save.problems.field('scope')}
        />
        <NumberInput
          label="Scope workflow ID"
          value={workflowId}
          onChange={setWorkflowId}
          error={save.problems.field('scope.workflow_id')}
        />
        <NumberInput
          label="Scope campaign ID"
          value={campaignId}
          onChange={setCampaignId}
          error={save.problems.field('scope.campaign_id')}
        />
        <Switch
          label="Enabled"
          mt="lg"
          checked={enabled}
          onChange={(event) => setEnabled(event.currentTarget.checked)}
          error={save.problems.field('enabled')}
        />
      </SimpleGrid>
    </ApiForm>
  );
}

function AlertsPage() {
  const api = useApi();
  const filters = useListFilters<{ status: string | null; ruleId: string }>({ status: null, ruleId: '' });
  const { page, setPage } = filters;
  const { status, ruleId } = filters.values;
  const query = filled({ page, per_page: 50, 'filter[status]': status ?? '', 'filter[rule_id]': ruleId });
  const alerts = useQuery({
    queryKey: ['alerts', query],
    queryFn: () => ok(api.GET('/api/v1/alerts', { params: { query } })),
  });
  return (
    <>
      <PageHeader title="Alerts" description="Raised by the alert rules; newest first." />
      <Section title="All alerts">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <SelectFilter
            label="State"
            data={['firing', 'resolved']}
            value={status}
            onChange={filters.set('status')}
          />
          <TextFilter label="Rule ID" value={ruleId} onChange={filters.set('ruleId')} />
        </SimpleGrid>
        <QueryState isPending={alerts.isPending} error={alerts.error}>
          {() => (
            <ResourceTable<Alert>
              caption="Alerts"
              rows={alerts.data!.data}
              meta={alerts.data!.meta as PageMeta}
              page={page}
              onPage={setPage}
              rowKey={(alert) => alert.id}
              columns={[
                { header: 'State', cell: (alert) => <StateBadge status={alert.status} /> },
                { header: 'Rule', cell: (alert) => `#${alert.rule_id}` },
                {
                  header: 'Value',
                  cell: (alert) => `${alert.metric} ${alert.value} (${alert.comparator} ${alert.threshold})`,
                },
                {
                  header: 'Sample',
                  cell: (alert) => `${alert.sample_size} in ${alert.window_minutes} min`,
                },
                { header: 'Scope', cell: (alert) => scopeText(alert.scope) },
                {
                  header: 'Top failure codes',
                  cell: (alert) =>
                    alert.top_failure_codes.length === 0 ? (
                      '—'
                    ) : (
                      <Stack gap={2}>
                        {alert.top_failure_codes.map((code) => (
                          <Text size="sm" key={code.code}>
                            <strong>{code.code}</strong>: {code.count} — {code.fix}
                          </Text>
                        ))}
                      </Stack>
                    ),
                },
                { header: 'Started', cell: (alert) => <Time at={alert.started_at} /> },
                { header: 'Resolved', cell: (alert) => <Time at={alert.resolved_at} /> },
              ]}
            />
          )}
        </QueryState>
      </Section>
    </>
  );
}

export const routes: RouteObject[] = [
  { path: 'alert-rules', element: <AlertRulesPage /> },
  { path: 'alerts', element: <AlertsPage /> },
];
