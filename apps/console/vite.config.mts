import { fileURLToPath } from 'node:url';

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

// The console is served by the gateway at /app (apps/gateway/src/console): assets under /app/assets/ with
// their content hash in the name, cached for a year; index.html is never cached. `vite` alone serves it
// for development, sending /api to a gateway on 127.0.0.1:3000.
export default defineConfig({
  root: here('.'),
  base: '/app/',
  plugins: [react()],
  resolve: {
    alias: { '@cms/sdk/schema': here('../../libs/sdk/src/schema.ts') },
  },
  build: {
    outDir: here('../../dist/console'),
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
