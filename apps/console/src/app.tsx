import { Center, Loader } from '@mantine/core';
import { useEffect, useState } from 'react';
import { RouterProvider, createBrowserRouter } from 'react-router';

import { ApiError } from './api';
import { ErrorAlert } from './components/ui';
import { CONSOLE_ROUTES } from './routes';
import { SessionProvider, describeKey, forgetKey, rememberKey, storedKey, type CurrentKey } from './session';
import { SignIn } from './sign-in';

const router = createBrowserRouter(CONSOLE_ROUTES, { basename: '/app' });

type State =
  | { phase: 'checking' }
  | { phase: 'signed-out' }
  | { phase: 'signed-in'; secret: string; key: CurrentKey }
  | { phase: 'unreachable'; error: unknown };

/** Signs in (or resumes this tab's session), then serves the pages. */
export function App() {
  const [state, setState] = useState<State>(() =>
    storedKey() ? { phase: 'checking' } : { phase: 'signed-out' },
  );
  useEffect(() => {
    const secret = storedKey();
    if (!secret) return;
    describeKey(secret).then(
      (key) => setState({ phase: 'signed-in', secret, key }),
      (error: unknown) => {
        if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
          forgetKey();
          setState({ phase: 'signed-out' });
        } else setState({ phase: 'unreachable', error });
      },
    );
  }, []);
  switch (state.phase) {
    case 'checking':
      return (
        <Center mih="100vh" component="main">
          <Loader role="progressbar" aria-label="Signing in" />
        </Center>
      );
    case 'unreachable':
      return (
        <Center mih="100vh" p="md" component="main">
          <ErrorAlert error={state.error} />
        </Center>
      );
    case 'signed-out':
      return (
        <SignIn
          onSignedIn={(secret, key) => {
            rememberKey(secret);
            setState({ phase: 'signed-in', secret, key });
          }}
        />
      );
    case 'signed-in':
      return (
        <SessionProvider
          secret={state.secret}
          currentKey={state.key}
          onSignOut={() => {
            forgetKey();
            setState({ phase: 'signed-out' });
          }}
        >
          <RouterProvider router={router} />
        </SessionProvider>
      );
  }
}
