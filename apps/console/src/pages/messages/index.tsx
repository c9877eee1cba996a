import type { RouteObject } from 'react-router';

import { ErrorContrast } from '../contacts/shared';
import { MessagePage } from './MessagePage';
import { MessagesPage } from './MessagesPage';
import { NewMessagePage } from './NewMessagePage';
import { SuppressionsPage } from './SuppressionsPage';

export const routes: RouteObject[] = [
  {
    path: 'messages',
    element: (
      <ErrorContrast>
        <MessagesPage />
      </ErrorContrast>
    ),
  },
  {
    path: 'messages/new',
    element: (
      <ErrorContrast>
        <NewMessagePage />
      </ErrorContrast>
    ),
  },
  {
    path: 'messages/:id',
    element: (
      <ErrorContrast>
        <MessagePage />
      </ErrorContrast>
    ),
  },
  {
    path: 'suppressions',
    element: (
      <ErrorContrast>
        <SuppressionsPage />
      </ErrorContrast>
    ),
  },
];
