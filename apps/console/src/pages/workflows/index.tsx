import type { RouteObject } from 'react-router';

import { OutcomePage, OutcomesPage, RunPage, WorkflowPage, WorkflowsPage } from './pages';

export const routes: RouteObject[] = [
  { path: 'workflows', element: <WorkflowsPage /> },
  { path: 'workflows/:id', element: <WorkflowPage /> },
  { path: 'workflow-runs/:id', element: <RunPage /> },
  { path: 'outcomes', element: <OutcomesPage /> },
  { path: 'outcomes/:id', element: <OutcomePage /> },
];
