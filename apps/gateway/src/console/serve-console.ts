import type { INestApplication } from '@nestjs/common';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Where `node scripts/build.mjs` writes the console (Vite, apps/console): dist/console beside dist/apps.
 * This file runs as dist/apps/gateway/src/console/serve-console.js; CONSOLE_DIR names another place.
 */
function consoleDir(): string {
  const { join } = process.getBuiltinModule('node:path');
  return process.env['CONSOLE_DIR'] ?? join(__dirname, '..', '..', '..', '..', 'console');
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
};

/**
 * The console's own rules: scripts, data and images from the gateway only, never in a frame. Styles
 * may be inline: the component library writes its theme's CSS variables into a style element.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function secured(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', CONTENT_SECURITY_POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY');
}

function notFound(reply: FastifyReply, detail: string): FastifyReply {
  return reply
    .code(404)
    .type('application/json')
    .send({ errors: [{ status: '404', title: 'Not Found', detail }] });
}

/**
 * The console at /app (extensions §14): its pages (every path under /app is the one page, index.html,
 * never cached, so a new build is picked up at once) and its assets under /app/assets/, whose names
 * carry a hash of their content and are cached for a year. A gateway whose dist/ has no console built
 * says so at /app with a 404.
 */
export function serveConsole(app: INestApplication): void {
  const { existsSync, createReadStream, statSync } = process.getBuiltinModule('node:fs');
  const { readFile } = process.getBuiltinModule('node:fs/promises');
  const { extname, join } = process.getBuiltinModule('node:path');
  const root = consoleDir();
  const indexFile = join(root, 'index.html');
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;

  // Read at each request (a few hundred bytes): the page always names the assets of the build on disk.
  const sendPage = async (_request: unknown, reply: FastifyReply) => {
    const page = await readFile(indexFile).catch(() => undefined);
    return page
      ? secured(reply).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page)
      : notFound(reply, 'The console is not built on this gateway: run `node scripts/build.mjs`.');
  };

  fastify.get('/app', sendPage);
  fastify.get<{ Params: { file: string } }>('/app/assets/:file', (request, reply) => {
    const { file } = request.params;
    const type = TYPES[extname(file)];
    const path = join(root, 'assets', file);
    if (!/^[\w.-]+$/.test(file) || file.startsWith('.') || !type || !existsSync(path)) {
      return notFound(reply, 'No such asset of the console.');
    }
    return secured(reply)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('content-length', String(statSync(path).size))
      .type(type)
      .send(createReadStream(path));
  });
  fastify.get('/app/*', sendPage);
}
