import {
  Alert,
  Button,
  Code,
  Group,
  Loader,
  Modal,
  Pagination,
  Stack,
  Table,
  Text,
  Title,
  type ButtonProps,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router';

import { ApiError, NetworkError, type PageMeta } from '../api';
import { formProblems } from '../problems';

let navigated = false;

/** The heading of a page and its actions (buttons the key may use). Focus moves here on navigation. */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Console`;
    // After a navigation inside the console, focus goes to the new page's heading (a screen reader
    // announces it); the first page of a visit leaves focus at the top, where the skip link is.
    if (navigated) heading.current?.focus();
    navigated = true;
  }, [title]);
  return (
    <Group justify="space-between" align="flex-start" mb="md" wrap="wrap" gap="sm">
      <Stack gap={4} style={{ minWidth: 0, maxWidth: '100%' }}>
        <Title
          order={1}
          size="h2"
          ref={heading}
          tabIndex={-1}
          style={{ outline: 'none', overflowWrap: 'anywhere' }}
        >
          {title}
        </Title>
        {description ? (
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        ) : null}
      </Stack>
      {actions ? <Group gap="xs">{actions}</Group> : null}
    </Group>
  );
}

/** A section inside a page, with its own heading level. */
export function Section({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Stack gap="xs" mt="lg" component="section" aria-label={title}>
      <Group justify="space-between" wrap="wrap">
        <Title order={2} size="h4">
          {title}
        </Title>
        {actions ? <Group gap="xs">{actions}</Group> : null}
      </Group>
      {children}
    </Stack>
  );
}

/** Loading, or what went wrong reading, or the content. */
export function QueryState({
  isPending,
  error,
  children,
}: {
  isPending: boolean;
  error: unknown;
  children: () => ReactNode;
}) {
  if (error) return <ErrorAlert error={error} />;
  if (isPending) return <Loader size="sm" role="progressbar" aria-label="Loading" />;
  return <>{children()}</>;
}

/** An error of the API or of the network, said plainly. */
export function ErrorAlert({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const heading =
    title ??
    (error instanceof NetworkError
      ? 'The network failed'
      : error instanceof ApiError
        ? `The API answered ${error.status}`
        : 'Something went wrong');
  return (
    <Alert color="red" title={heading} role="alert">
      <Stack gap={2}>
        {formProblems(error).all.map((entry, index) => (
          <Text key={index} size="sm">
            {entry.field ? <Code>{entry.field}</Code> : null} {entry.message}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}

/** The problems of a form's last attempt that no field shows (and a network failure). */
export function FormErrors({ error, shown }: { error: unknown; shown: readonly string[] }) {
  const messages = formProblems(error).unclaimed(shown);
  if (messages.length === 0) return null;
  return (
    <Alert
      color="red"
      role="alert"
      title={error instanceof NetworkError ? 'The network failed' : 'Not saved'}
    >
      <Stack gap={2}>
        {messages.map((message, index) => (
          <Text key={index} size="sm">
            {message}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}

export interface Column<Row> {
  header: string;
  cell(row: Row): ReactNode;
}

/**
 * A list of resources: a table that scrolls sideways on a narrow screen, the page's pager below it.
 * `caption` names the table for screen readers.
 */
export function ResourceTable<Row>({
  caption,
  rows,
  columns,
  rowKey,
  meta,
  page,
  onPage,
  empty = 'Nothing here yet.',
}: {
  caption: string;
  rows: readonly Row[];
  columns: ReadonlyArray<Column<Row>>;
  rowKey(row: Row): string | number;
  meta?: PageMeta;
  page?: number;
  onPage?(page: number): void;
  empty?: ReactNode;
}) {
  return (
    <Stack gap="xs">
      {/* Scrolls sideways on a narrow screen; focusable so a keyboard can scroll it too. */}
      <div role="region" aria-label={caption} tabIndex={0} style={{ overflowX: 'auto' }}>
        <Table striped highlightOnHover verticalSpacing="xs" miw={520}>
          <caption
            style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}
          >
            {caption}
          </caption>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column.header} scope="col">
                  {column.header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={columns.length}>
                  <Text c="dimmed" size="sm">
                    {empty}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              rows.map((row) => (
                <Table.Tr key={rowKey(row)}>
                  {columns.map((column) => (
                    <Table.Td key={column.header}>{column.cell(row)}</Table.Td>
                  ))}
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </div>
      {meta && onPage && meta.last_page > 1 ? (
        <Group justify="space-between" wrap="wrap">
          <Text size="sm" c="dimmed">
            {meta.total} in all
          </Text>
          <Pagination
            total={meta.last_page}
            value={page ?? meta.current_page}
            onChange={onPage}
            size="sm"
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
          />
        </Group>
      ) : meta ? (
        <Text size="sm" c="dimmed">
          {meta.total} in all
        </Text>
      ) : null}
    </Stack>
  );
}

/** A link to a page of the console (react-router, so the page does not reload). */
export function To({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Text component={Link} to={to} c="blue.8" td="underline" size="sm">
      {children}
    </Text>
  );
}

/**
 * A status word in a bordered label, in the page's own text colour: full contrast on white and on a
 * striped row (the word is the information; no colour carries any).
 */
export function StatusBadge({ status }: { status: string | null | undefined }) {
  if (!status) return <Text c="dimmed">—</Text>;
  return (
    <Text
      span
      size="xs"
      fw={700}
      style={{ border: '1px solid currentColor', borderRadius: 4, padding: '1px 6px', whiteSpace: 'nowrap' }}
    >
      {status}
    </Text>
  );
}

/** A time of the API (ISO 8601 UTC), shown in the person's own time zone, the exact value on hover. */
export function Time({ at }: { at: string | null | undefined }) {
  if (!at)
    return (
      <Text span c="dimmed">
        —
      </Text>
    );
  return (
    <time dateTime={at} title={at}>
      {new Date(at).toLocaleString()}
    </time>
  );
}

/** A JSON value, pretty-printed and readable by keyboard (the block scrolls). */
export function Json({ value, label }: { value: unknown; label: string }) {
  return (
    <Code block aria-label={label} tabIndex={0} style={{ maxHeight: 320, overflow: 'auto' }}>
      {JSON.stringify(value, null, 2)}
    </Code>
  );
}

/**
 * A button that asks before it acts (delete, cancel, roll a secret), shows the API's refusal in the
 * dialog and refreshes `invalidates` when done.
 */
export function ConfirmButton({
  label,
  title,
  message,
  confirmLabel,
  action,
  invalidates = [],
  onDone,
  color = 'red',
  variant = 'light',
  size = 'sm',
}: {
  label: string;
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  action(): Promise<unknown>;
  invalidates?: QueryKey[];
  onDone?(result: unknown): void;
  color?: string;
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
}) {
  const [opened, { open, close }] = useDisclosure(false);
  const queries = useQueryClient();
  const mutation = useMutation({
    mutationFn: action,
    onSuccess: async (result) => {
      close();
      await Promise.all(invalidates.map((queryKey) => queries.invalidateQueries({ queryKey })));
      onDone?.(result);
    },
  });
  return (
    <>
      <Button color={color} variant={variant} size={size} onClick={open}>
        {label}
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        title={title}
        centered
        closeButtonProps={{ 'aria-label': 'Close the dialog' }}
      >
        <Stack>
          <Text size="sm">{message}</Text>
          <ErrorAlert error={mutation.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Keep it
            </Button>
            <Button color={color} loading={mutation.isPending} onClick={() => mutation.mutate()}>
              {confirmLabel ?? label}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

/** Labelled facts about one resource, as a description list. */
export function Facts({ items }: { items: Array<[string, ReactNode]> }) {
  return (
    <dl
      style={{
        display: 'grid',
        gridTemplateColumns: 'minmax(8rem, max-content) 1fr',
        gap: '0.35rem 1rem',
        margin: 0,
      }}
    >
      {items.map(([term, value]) => (
        <div key={term} style={{ display: 'contents' }}>
          <dt style={{ fontWeight: 600, fontSize: 'var(--mantine-font-size-sm)' }}>{term}</dt>
          <dd style={{ margin: 0, fontSize: 'var(--mantine-font-size-sm)', overflowWrap: 'anywhere' }}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
