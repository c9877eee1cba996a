import { Card, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';

import { ok } from '../../api';
import { Facts, PageHeader, Section, To } from '../../components/ui';
import { useApi, useSession } from '../../session';

/** How many of a resource the workspace has: the `total` of its list's first page. */
function useTotal(name: string, read: () => Promise<{ meta: { total: number } }>) {
  return useQuery({ queryKey: [name, 'total'], queryFn: read });
}

function Count({ label, to, total }: { label: string; to: string; total: number | undefined }) {
  return (
    <Card withBorder padding="sm">
      <Stack gap={2}>
        <Text size="xl" fw={700}>
          {total ?? '…'}
        </Text>
        <To to={to}>{label}</To>
      </Stack>
    </Card>
  );
}

/** The signed-in key, its workspace, and how much the workspace holds. */
function OverviewPage() {
  const { key } = useSession();
  const api = useApi();
  const per = { page: 1, per_page: 1 };
  const canRead = key.permissions.includes('read');
  const contacts = useTotal('contacts', () => ok(api.GET('/api/v1/contacts', { params: { query: per } })));
  const messages = useTotal('messages', () => ok(api.GET('/api/v1/messages', { params: { query: per } })));
  const channels = useTotal('channels', () => ok(api.GET('/api/v1/channels', { params: { query: per } })));
  const workflows = useTotal('workflows', () => ok(api.GET('/api/v1/workflows', { params: { query: per } })));
  return (
    <>
      <PageHeader title="Overview" description="The workspace this API key belongs to." />
      <Facts
        items={[
          ['Workspace', `${key.workspace.name} (#${key.workspace.id})`],
          ['Plan', key.workspace.plan],
          ['API key', key.name],
          ['Permissions', key.permissions.join(', ')],
        ]}
      />
      {canRead ? (
        <Section title="At a glance">
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            <Count label="Contacts" to="/contacts" total={contacts.data?.meta.total} />
            <Count label="Messages" to="/messages" total={messages.data?.meta.total} />
            <Count label="Channels" to="/channels" total={channels.data?.meta.total} />
            <Count label="Workflows" to="/workflows" total={workflows.data?.meta.total} />
          </SimpleGrid>
        </Section>
      ) : (
        <Text mt="md">This key cannot read: the console shows only what it may do.</Text>
      )}
    </>
  );
}

export const routes: RouteObject[] = [{ index: true, element: <OverviewPage /> }];
