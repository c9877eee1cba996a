import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useMemo, type ReactNode } from 'react';

import { createApi, ok, type Api, type Schema } from './api';

/** The key lives in this tab's session storage only: closing the tab signs out. */
const STORAGE_KEY = 'cms.console.api-key';

export type Permission = 'read' | 'create' | 'update' | 'delete';

/** `GET /api/v1/api-key`: the signed-in key, its permissions and its workspace. */
export type CurrentKey = Schema<'CurrentApiKey'>;

interface Session {
  api: Api;
  key: CurrentKey;
  can(permission: Permission): boolean;
  signOut(): void;
}

const SessionContext = createContext<Session | null>(null);

/** The signed-in session; every page below the shell has one. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in session');
  return session;
}

/** The typed API client of the signed-in key. */
export function useApi(): Api {
  return useSession().api;
}

/** Whether the signed-in key has a permission (a read-only key sees no buttons it cannot use). */
export function useCan(permission: Permission): boolean {
  return useSession().can(permission);
}

/** Shows its children only when the key has the permission. */
export function Can({ permission, children }: { permission: Permission; children: ReactNode }) {
  return useCan(permission) ? <>{children}</> : null;
}

/** Asks the API who the key is: a wrong or deleted key is the API's 401. */
export async function describeKey(secret: string): Promise<CurrentKey> {
  return (await ok(createApi(secret).GET('/api/v1/api-key'))).data;
}

export function storedKey(): string | null {
  return window.sessionStorage.getItem(STORAGE_KEY);
}

export function rememberKey(secret: string): void {
  window.sessionStorage.setItem(STORAGE_KEY, secret);
}

export function forgetKey(): void {
  window.sessionStorage.removeItem(STORAGE_KEY);
}

/** Holds the signed-in key for the pages below it; signing out forgets every answer read with it. */
export function SessionProvider({
  secret,
  currentKey,
  onSignOut,
  children,
}: {
  secret: string;
  currentKey: CurrentKey;
  onSignOut(): void;
  children: ReactNode;
}) {
  const queries = useQueryClient();
  const session = useMemo<Session>(() => {
    const permissions = new Set<string>(currentKey.permissions);
    return {
      api: createApi(secret),
      key: currentKey,
      can: (permission) => permissions.has(permission),
      signOut: () => {
        queries.clear();
        onSignOut();
      },
    };
  }, [secret, currentKey, onSignOut, queries]);
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
