import { Button, Group, Stack } from '@mantine/core';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { FormEvent, ReactNode } from 'react';

import { formProblems, type FormProblems } from '../problems';
import { FormErrors } from './ui';

/**
 * A write to the API from a form: the API's problems sorted by field (`problems.field('name')` for a
 * Mantine input's `error`), the queries in `invalidates` refreshed after it succeeds. What the person
 * typed stays in the form's own state whatever the answer, a network failure included.
 */
export function useSubmit<Input, Result>(
  mutationFn: (input: Input) => Promise<Result>,
  options: { invalidates?: QueryKey[]; onSuccess?(result: Result): void } = {},
) {
  const queries = useQueryClient();
  const mutation = useMutation({
    mutationFn,
    onSuccess: async (result) => {
      await Promise.all(
        (options.invalidates ?? []).map((queryKey) => queries.invalidateQueries({ queryKey })),
      );
      options.onSuccess?.(result);
    },
  });
  const problems: FormProblems = formProblems(mutation.error);
  return { ...mutation, problems };
}

/**
 * A form that submits on Enter and on its button: `shown` lists the fields (dotted paths) that show
 * their own problems; the rest are shown above the button.
 */
export function ApiForm({
  onSubmit,
  error,
  shown,
  submitLabel,
  pending,
  children,
  extraActions,
  label,
}: {
  onSubmit(): void;
  error: unknown;
  shown: readonly string[];
  submitLabel: string;
  pending: boolean;
  children: ReactNode;
  extraActions?: ReactNode;
  /** The form's accessible name. */
  label: string;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form onSubmit={submit} aria-label={label} noValidate>
      <Stack gap="sm">
        {children}
        <FormErrors error={error} shown={shown} />
        <Group gap="xs">
          <Button type="submit" loading={pending}>
            {submitLabel}
          </Button>
          {extraActions}
        </Group>
      </Stack>
    </form>
  );
}

/** Parses the JSON a person typed into a field; the message says where it is wrong. */
export function parseJson(text: string, field: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`${field}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}
