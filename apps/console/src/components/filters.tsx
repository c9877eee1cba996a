import { Group, Select, TextInput, type ComboboxData } from '@mantine/core';
import { useState, type ReactNode } from 'react';

/** A list's page and its filters' values: changing a filter goes back to the first page. */
export function useListFilters<F extends Record<string, string | null>>(initial: F) {
  const [page, setPage] = useState(1);
  const [values, setValues] = useState<F>(initial);
  const set =
    <K extends keyof F>(key: K) =>
    (value: F[K]) => {
      setValues((current) => ({ ...current, [key]: value }));
      setPage(1);
    };
  return { page, setPage, values, set };
}

/** The filters above a list, side by side, wrapping on a narrow screen. */
export function FilterBar({ children }: { children: ReactNode }) {
  return (
    <Group wrap="wrap" gap="xs" align="flex-end">
      {children}
    </Group>
  );
}

/** A filter by one of `data`, or by none when cleared. */
export function SelectFilter({
  label,
  data,
  value,
  onChange,
}: {
  label: string;
  data: ComboboxData;
  value: string | null;
  onChange(value: string | null): void;
}) {
  return <Select label={label} data={data} value={value} clearable placeholder="Any" onChange={onChange} />;
}

/** A filter by what is typed (a name, an ID). */
export function TextFilter({
  label,
  description,
  value,
  onChange,
}: {
  label: string;
  description?: string;
  value: string;
  onChange(value: string): void;
}) {
  return (
    <TextInput
      label={label}
      description={description}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}

/** The choices of a filter by `enabled`. */
export const ENABLED_CHOICES = [
  { value: 'true', label: 'Enabled' },
  { value: 'false', label: 'Disabled' },
];
