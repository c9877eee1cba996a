import {
  Alert,
  Anchor,
  AppShell,
  Badge,
  Burger,
  Button,
  Group,
  NavLink,
  ScrollArea,
  Stack,
  Text,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';

import { onRateLimitWait } from './api';
import { NAVIGATION } from './nav';
import { useSession } from './session';

/** While a 429 makes the console wait, it says so and for how long. */
function RateLimitBanner() {
  const [seconds, setSeconds] = useState<number | null>(null);
  useEffect(() => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const unsubscribe = onRateLimitWait((until) => {
      clearInterval(timer);
      if (until === null) {
        setSeconds(null);
        return;
      }
      const update = () => setSeconds(Math.max(0, Math.ceil((until - Date.now()) / 1000)));
      update();
      timer = setInterval(update, 500);
    });
    return () => {
      clearInterval(timer);
      unsubscribe();
    };
  }, []);
  if (seconds === null) return null;
  return (
    <Alert color="yellow" role="status" title="Rate limit reached" mb="md">
      The API asked to wait; the console sends the request again in {seconds} s.
    </Alert>
  );
}

/** The frame of every signed-in page: the navigation (a menu on a narrow screen) and the page. */
export function Shell() {
  const { key, signOut } = useSession();
  const [opened, { toggle, close }] = useDisclosure(false);
  const location = useLocation();
  useEffect(close, [location.pathname, close]);
  const active = (to: string) =>
    to === '/'
      ? location.pathname === '/'
      : location.pathname === to || location.pathname.startsWith(`${to}/`);
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <Anchor
        href="#main"
        className="skip-link"
        onClick={(event) => {
          event.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </Anchor>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? 'Close navigation' : 'Open navigation'}
              aria-expanded={opened}
              aria-controls="navigation"
            />
            <Text fw={700} component={Link} to="/" c="inherit" td="none">
              Console
            </Text>
            <Text size="sm" c="dimmed" visibleFrom="xs" truncate>
              {key.workspace.name}
            </Text>
            <Badge variant="light" visibleFrom="xs">
              {key.workspace.plan}
            </Badge>
          </Group>
          <Button variant="subtle" size="compact-sm" onClick={signOut}>
            Sign out
          </Button>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" id="navigation" aria-label="Sections">
        <ScrollArea type="auto">
          <nav aria-label="Sections">
            <Stack gap={6}>
              {NAVIGATION.map((group) => (
                <div key={group.group}>
                  <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt={4}>
                    {group.group}
                  </Text>
                  {group.links.map((link) => (
                    <NavLink
                      key={link.to}
                      component={Link}
                      to={link.to}
                      label={link.label}
                      active={active(link.to)}
                      aria-current={active(link.to) ? 'page' : undefined}
                    />
                  ))}
                </div>
              ))}
            </Stack>
          </nav>
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1} style={{ outline: 'none' }}>
        <RateLimitBanner />
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
