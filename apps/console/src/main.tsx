import '@mantine/core/styles.css';
import './console.css';

import { MantineProvider, createTheme, type CSSVariablesResolver } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { ApiError } from './api';
import { App } from './app';

const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: 8, // text on it keeps a contrast of at least 4.5:1
  defaultRadius: 'sm',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
});

// Mantine's dimmed text (gray 6) and error text (red 6) are below 4.5:1 on white at small sizes: gray 7
// and red 9 keep them readable.
const contrast: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {},
});

const queries = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx is the answer (not found, forbidden): asking again changes nothing. A 429 was already waited.
      retry: (failures, error) => !(error instanceof ApiError && error.status < 500) && failures < 2,
      staleTime: 5_000,
      refetchOnWindowFocus: false,
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={contrast}>
      <QueryClientProvider client={queries}>
        <App />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
