import '@mantine/core/styles.css';
import './console.css';

import { MantineProvider, createTheme, darken, luminance, type CSSVariablesResolver } from '@mantine/core';
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

/** The contrast ratio of two colours (WCAG 2). */
function contrastRatio(a: string, b: string): number {
  const [lighter, darker] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

/** Shade 9 of a colour, darkened until it keeps a contrast of at least 4.5:1 on `background`. */
function readableOn(shades: readonly string[], background: string): string {
  let text = shades[9]!;
  for (let step = 1; contrastRatio(text, background) < 4.5 && step <= 10; step++) {
    text = darken(shades[9]!, step / 10);
  }
  return text;
}

// Mantine's dimmed text (gray 6) and error text (red 6) are below 4.5:1 on white at small sizes: gray 7
// and red 9 keep them readable. The text of a light variant (an alert's title, the active link of the
// navigation) is shade 9 on shade 1, or on shade 2 under the pointer, which several colours keep below
// 4.5:1: it is darkened until it keeps that on shade 2.
const contrast: CSSVariablesResolver = (theme) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    ...Object.fromEntries(
      Object.entries(theme.colors).map(([name, shades]) => [
        `--mantine-color-${name}-light-color`,
        readableOn(shades, shades[2]!),
      ]),
    ),
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
