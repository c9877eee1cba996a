import type { RouteObject } from 'react-router';

import { PageHeader, To } from './components/ui';
import { routes as alerts } from './pages/alerts';
import { routes as audiences } from './pages/audiences';
import { routes as bots } from './pages/bots';
import { routes as channels } from './pages/channels';
import { routes as contacts } from './pages/contacts';
import { routes as messages } from './pages/messages';
import { routes as notifications } from './pages/notifications';
import { routes as overview } from './pages/overview';
import { routes as tags } from './pages/tags';
import { routes as templates } from './pages/templates';
import { routes as webhooks } from './pages/webhooks';
import { routes as workflows } from './pages/workflows';
import { Shell } from './shell';

function NotFound() {
  return (
    <>
      <PageHeader title="Page not found" description="The console has no page at this address." />
      <To to="/">Go to the overview</To>
    </>
  );
}

/** Every page of the console, under the shell; paths are relative to /app. */
export const CONSOLE_ROUTES: RouteObject[] = [
  {
    path: '/',
    element: <Shell />,
    children: [
      ...overview,
      ...contacts,
      ...tags,
      ...audiences,
      ...messages,
      ...channels,
      ...templates,
      ...workflows,
      ...bots,
      ...notifications,
      ...webhooks,
      ...alerts,
      { path: '*', element: <NotFound /> },
    ],
  },
];
