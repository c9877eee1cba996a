import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';

import { filled, ok, type PageMeta, type Schema } from '../../api';
import {
  ENABLED_CHOICES,
  FilterBar,
  SelectFilter,
  TextFilter,
  useListFilters,
} from '../../components/filters';
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
import { StatusBadge as Status } from '../../components/ui';
import { BotForm, type Bot } from './form';

type Conversation = Schema<'BotConversation'>;

function useId(): number {
  const { id } = useParams();
  return Number(id);
}

function trigger(bot: Bot): string {
  return bot.trigger_value ? `${bot.trigger_type}: ${bot.trigger_value}` : bot.trigger_type;
}

/** The workspace's bots: filters, a "New bot" form for either mode, each linking to its page. */
export function BotsPage() {
  const api = useApi();
  const filters = useListFilters<{ mode: string | null; triggerType: string | null; enabled: string | null }>(
    { mode: null, triggerType: null, enabled: null },
  );
  const { page, setPage } = filters;
  const { mode, triggerType, enabled } = filters.values;
  const [creating, { open, close }] = useDisclosure(false);
  const bots = useQuery({
    queryKey: ['bots', 'list', page, mode, triggerType, enabled],
    queryFn: () =>
      ok(
        api.GET('/api/v1/bots', {
          params: {
            query: filled({
              page,
              per_page: 25,
              'filter[mode]': mode ?? '',
              'filter[trigger_type]': triggerType ?? '',
              'filter[enabled]': enabled ?? '',
            }),
          },
        }),
      ),
  });
  return (
    <>
      <PageHeader
        title="Bots"
        description="Conversations on a channel: scripted flows or AI answers."
        actions={
          <Can permission="create">
            <Button onClick={creating ? close : open}>{creating ? 'Close the form' : 'New bot'}</Button>
          </Can>
        }
      />
      {creating ? (
        <Can permission="create">
          <Section title="New bot">
            <BotForm onSaved={close} />
          </Section>
        </Can>
      ) : null}
      <Section title="All bots">
        <FilterBar>
          <SelectFilter
            label="Mode filter"
            data={['flow', 'ai']}
            value={filters.values.mode}
            onChange={filters.set('mode')}
          />
          <SelectFilter
            label="Trigger type filter"
            data={['keyword', 'any_message', 'event', 'schedule']}
            value={filters.values.triggerType}
            onChange={filters.set('triggerType')}
          />
          <SelectFilter
            label="Enabled filter"
            data={ENABLED_CHOICES}
            value={filters.values.enabled}
            onChange={filters.set('enabled')}
          />
        </FilterBar>
        <QueryState isPending={bots.isPending} error={bots.error}>
          {() => (
            <ResourceTable<Bot>
              caption="Bots"
              rows={bots.data!.data}
              meta={bots.data!.meta as PageMeta}
              page={page}
              onPage={setPage}
              rowKey={(bot) => bot.id}
              columns={[
                { header: 'Name', cell: (bot) => <To to={`/bots/${bot.id}`}>{bot.name}</To> },
                { header: 'Mode', cell: (bot) => bot.mode },
                { header: 'Trigger', cell: (bot) => trigger(bot) },
                {
                  header: 'Status',
                  cell: (bot) => <Status status={bot.enabled ? 'enabled' : 'disabled'} />,
                },
                { header: 'Updated', cell: (bot) => <Time at={bot.updated_at} /> },
              ]}
            />
          )}
        </QueryState>
      </Section>
    </>
  );
}

/** One bot: its facts, edit, delete, and its conversations. */
export function BotPage() {
  const api = useApi();
  const id = useId();
  const navigate = useNavigate();
  const [editing, { open, close }] = useDisclosure(false);
  const bot = useQuery({
    queryKey: ['bots', 'one', id],
    queryFn: () => ok(api.GET('/api/v1/bots/{id}', { params: { path: { id } } })),
  });
  const b = bot.data?.data;
  return (
    <>
      <PageHeader
        title={b ? `Bot: ${b.name}` : 'Bot'}
        description={<To to="/bots">All bots</To>}
        actions={
          b ? (
            <Group gap="xs" wrap="wrap">
              <Can permission="update">
                <Button variant="default" onClick={editing ? close : open}>
                  {editing ? 'Close the editor' : 'Edit'}
                </Button>
              </Can>
              <Can permission="delete">
                <ConfirmButton
                  label="Delete"
                  title={`Delete the bot ${b.name}?`}
                  message="Its active conversations end completed (bot_deleted); every conversation stays readable."
                  action={() => ok(api.DELETE('/api/v1/bots/{id}', { params: { path: { id: b.id } } }))}
                  invalidates={[['bots']]}
                  onDone={() => void navigate('/bots')}
                />
              </Can>
            </Group>
          ) : null
        }
      />
      <QueryState isPending={bot.isPending} error={bot.error}>
        {() => (
          <>
            <Section title="Bot">
              <Facts
                items={[
                  ['Status', <Status key="s" status={b!.enabled ? 'enabled' : 'disabled'} />],
                  ['Mode', b!.mode],
                  ['Trigger', trigger(b!)],
                  ['Description', b!.description ?? '—'],
                  [
                    'Audience',
                    b!.target_group_id ? (
                      <To key="a" to={`/audiences/${b!.target_group_id}`}>
                        {String(b!.target_group_id)}
                      </To>
                    ) : (
                      '—'
                    ),
                  ],
                  ['Channel', b!.settings.channel_id ?? '—'],
                  [
                    'Schedule',
                    b!.settings.schedule_cron
                      ? `${b!.settings.schedule_cron} (${b!.settings.schedule_timezone ?? 'UTC'})`
                      : '—',
                  ],
                  ...(b!.mode === 'ai'
                    ? ([
                        ['AI instructions', b!.ai_instructions ?? '—'],
                        ['AI temperature', b!.ai_temperature ?? '—'],
                        ['AI max tokens', b!.ai_max_tokens ?? '—'],
                      ] as Array<[string, string | number]>)
                    : []),
                  ['Created', <Time key="c" at={b!.created_at} />],
                  ['Updated', <Time key="u" at={b!.updated_at} />],
                ]}
              />
              {b!.mode === 'flow' && b!.flow_definition ? (
                <Json label="Flow steps" value={b!.flow_definition.steps} />
              ) : null}
            </Section>
            {editing ? (
              <Can permission="update">
                <Section title="Edit the bot">
                  <BotForm key={`${b!.id}-${b!.updated_at}`} bot={b!} onSaved={close} />
                </Section>
              </Can>
            ) : null}
            <Conversations botId={id} />
          </>
        )}
      </QueryState>
    </>
  );
}

function Conversations({ botId }: { botId: number }) {
  const api = useApi();
  const filters = useListFilters<{ status: string | null; contact: string }>({ status: null, contact: '' });
  const { page, setPage } = filters;
  const { status, contact } = filters.values;
  const conversations = useQuery({
    queryKey: ['bots', 'conversations', botId, page, status, contact],
    queryFn: () =>
      ok(
        api.GET('/api/v1/bots/{id}/conversations', {
          params: {
            path: { id: botId },
            query: filled({
              page,
              per_page: 25,
              'filter[status]': status ?? '',
              'filter[contact_id]': contact,
            }),
          },
        }),
      ),
  });
  return (
    <Section title="Conversations">
      <FilterBar>
        <SelectFilter
          label="Conversation status"
          data={['active', 'completed', 'expired', 'failed']}
          value={filters.values.status}
          onChange={filters.set('status')}
        />
        <TextFilter label="Contact ID" value={filters.values.contact} onChange={filters.set('contact')} />
      </FilterBar>
      <QueryState isPending={conversations.isPending} error={conversations.error}>
        {() => (
          <ResourceTable<Conversation>
            caption="Conversations"
            rows={conversations.data!.data}
            meta={conversations.data!.meta as PageMeta}
            page={page}
            onPage={setPage}
            rowKey={(c) => c.id}
            empty="No conversation yet."
            columns={[
              {
                header: 'Conversation',
                cell: (c) => <To to={`/bot-conversations/${c.id}`}>{`Conversation ${c.id}`}</To>,
              },
              { header: 'Status', cell: (c) => <Status status={c.status} /> },
              { header: 'End reason', cell: (c) => c.end_reason ?? '—' },
              {
                header: 'Contact',
                cell: (c) => <To to={`/contacts/${c.contact_id}`}>{String(c.contact_id)}</To>,
              },
              { header: 'Messages', cell: (c) => c.messages.length },
              { header: 'Started', cell: (c) => <Time at={c.started_at} /> },
              { header: 'Ended', cell: (c) => <Time at={c.ended_at} /> },
            ]}
          />
        )}
      </QueryState>
    </Section>
  );
}

/** One conversation as a chat transcript; polls every 3 s while it is active. */
export function ConversationPage() {
  const api = useApi();
  const id = useId();
  const conversation = useQuery({
    queryKey: ['bot-conversations', id],
    queryFn: () => ok(api.GET('/api/v1/bot-conversations/{id}', { params: { path: { id } } })),
    refetchInterval: (query) =>
      (query.state.data?.data.status ?? 'active') === 'active' && !query.state.error ? 3000 : false,
  });
  const c = conversation.data?.data;
  return (
    <>
      <PageHeader
        title={`Bot conversation ${id}`}
        description={c ? <To to={`/bots/${c.bot_id}`}>{`Bot ${c.bot_id}`}</To> : undefined}
      />
      <QueryState isPending={conversation.isPending} error={conversation.error}>
        {() => (
          <>
            <Section title="Conversation">
              <Facts
                items={[
                  ['Status', <Status key="s" status={c!.status} />],
                  ['End reason', c!.end_reason ?? '—'],
                  ['Current step', c!.current_step ?? '—'],
                  ['Bot', <To key="b" to={`/bots/${c!.bot_id}`}>{`Bot ${c!.bot_id}`}</To>],
                  [
                    'Contact',
                    <To key="c" to={`/contacts/${c!.contact_id}`}>
                      {String(c!.contact_id)}
                    </To>,
                  ],
                  [
                    'Channel',
                    <To key="ch" to={`/channels/${c!.channel_id}`}>
                      {String(c!.channel_id)}
                    </To>,
                  ],
                  ['Started', <Time key="st" at={c!.started_at} />],
                  ['Ended', <Time key="en" at={c!.ended_at} />],
                ]}
              />
              {c!.status === 'active' ? (
                <Text size="sm" c="dimmed">
                  This conversation is active: the page refreshes every 3 seconds.
                </Text>
              ) : null}
            </Section>
            <Section title="Transcript">
              {c!.messages.length === 0 ? (
                <Text size="sm" c="dimmed">
                  No message yet.
                </Text>
              ) : (
                <Stack gap="xs" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                  {c!.messages.map((message, index) => {
                    const inbound = message.direction === 'inbound';
                    return (
                      <li
                        key={`${message.at}-${index}`}
                        style={{ display: 'flex', justifyContent: inbound ? 'flex-start' : 'flex-end' }}
                      >
                        <Card
                          withBorder
                          padding="xs"
                          radius="md"
                          bg={inbound ? 'gray.0' : 'blue.0'}
                          style={{ maxWidth: '85%' }}
                        >
                          <Text size="xs" fw={600}>
                            {inbound ? 'Contact (inbound)' : 'Bot (outbound)'} · <Time at={message.at} />
                          </Text>
                          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                            {message.text ?? '(template message)'}
                          </Text>
                          {message.message_id ? (
                            <div style={{ overflowWrap: 'anywhere' }}>
                              <To
                                to={`/messages/${message.message_id}`}
                              >{`Message ${message.message_id}`}</To>
                            </div>
                          ) : null}
                        </Card>
                      </li>
                    );
                  })}
                </Stack>
              )}
            </Section>
          </>
        )}
      </QueryState>
    </>
  );
}
