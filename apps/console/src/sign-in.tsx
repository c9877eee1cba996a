import { Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';

import { formProblems } from './problems';
import { describeKey, type CurrentKey } from './session';

/**
 * Sign-in with an API key of the workspace. The key is checked against the API (a wrong or deleted one
 * is the API's 401) and kept in this tab's session storage only.
 */
export function SignIn({ onSignedIn }: { onSignedIn(secret: string, key: CurrentKey): void }) {
  const [secret, setSecret] = useState('');
  const signIn = useMutation({
    mutationFn: async (typed: string) => ({ secret: typed, key: await describeKey(typed) }),
    onSuccess: ({ secret: typed, key }) => onSignedIn(typed, key),
  });
  useEffect(() => {
    document.title = 'Sign in · Console';
  }, []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (secret.trim() !== '') signIn.mutate(secret.trim());
  };
  const problems = formProblems(signIn.error);
  const refused = signIn.error ? problems.all.map((entry) => entry.message).join(' ') : undefined;
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder p="lg" radius="md" w="100%" maw={420}>
        <form onSubmit={submit} aria-label="Sign in" noValidate>
          <Stack>
            <Title order={1} size="h2">
              Sign in
            </Title>
            <Text size="sm" c="dimmed">
              With an API key of your workspace. The console can do exactly what the key may; the key is kept
              in this browser tab only and forgotten when the tab closes.
            </Text>
            <PasswordInput
              label="API key"
              placeholder="cms_live_…"
              autoComplete="off"
              required
              value={secret}
              onChange={(event) => setSecret(event.currentTarget.value)}
              error={refused}
              data-autofocus
            />
            <Button type="submit" loading={signIn.isPending} disabled={secret.trim() === ''}>
              Sign in
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
