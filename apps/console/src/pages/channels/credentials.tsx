import { NativeSelect, SimpleGrid, Text, TextInput } from '@mantine/core';

import type { FormProblems } from '../../problems';
import type { CredentialField } from './providers';

/** One input per credential the provider needs; the API's error shows next to each. */
export function CredentialInputs({
  fields,
  values,
  onChange,
  problems,
  keepHint,
}: {
  fields: readonly CredentialField[];
  values: Record<string, string>;
  onChange(values: Record<string, string>): void;
  problems: FormProblems;
  /** Shown on every field (the edit form: blank keeps the stored value). */
  keepHint?: string;
}) {
  const set = (key: string, value: string) => onChange({ ...values, [key]: value });
  // Problems about the credentials that no input shows (the object itself, or a member not asked for).
  const others = problems.all.filter(
    (entry) =>
      entry.field !== undefined &&
      (entry.field === 'credentials' || entry.field.startsWith('credentials.')) &&
      !fields.some((field) => entry.field === `credentials.${field.key}`),
  );
  return (
    <>
      {others.length > 0 ? (
        <Text size="sm" c="red.9" role="alert">
          Credentials: {others.map((entry) => entry.message).join(' ')}
        </Text>
      ) : null}
      {fields.length > 0 ? (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          {fields.map((field) => {
            const label = field.optional ? `${field.label} (optional)` : field.label;
            const error = problems.field(`credentials.${field.key}`);
            const description = [field.hint, keepHint].filter(Boolean).join(' ') || undefined;
            if (field.kind === 'boolean') {
              return (
                <NativeSelect
                  key={field.key}
                  label={label}
                  description={description}
                  data={[
                    { value: '', label: '—' },
                    { value: 'true', label: 'Yes' },
                    { value: 'false', label: 'No' },
                  ]}
                  value={values[field.key] ?? ''}
                  onChange={(event) => set(field.key, event.currentTarget.value)}
                  error={error}
                />
              );
            }
            return (
              <TextInput
                type={field.secret ? 'password' : 'text'}
                key={field.key}
                label={label}
                description={description}
                required={!field.optional && !keepHint}
                inputMode={field.kind === 'number' ? 'numeric' : undefined}
                value={values[field.key] ?? ''}
                onChange={(event) => set(field.key, event.currentTarget.value)}
                error={error}
                autoComplete="off"
              />
            );
          })}
        </SimpleGrid>
      ) : null}
    </>
  );
}
