import type { RouteObject } from 'react-router';

import { BotPage, BotsPage, ConversationPage } from './pages';

export const routes: RouteObject[] = [
  { path: 'bots', element: <BotsPage /> },
  { path: 'bots/:id', element: <BotPage /> },
  { path: 'bot-conversations/:id', element: <ConversationPage /> },
];
