import Fastify from 'fastify';

/**
 * The no-op baseline: plain Fastify (the HTTP server under the gateway) on the same route, parsing the
 * same JSON body and answering 202 at once. Its rate under the load tool is what this machine serves
 * over HTTP with nothing behind it; the gateway's rate is read against it.
 */
async function main(): Promise<void> {
  const app = Fastify({ logger: false });
  app.post('/api/v1/events', async (_request, reply) => {
    void reply.status(202);
    return { data: {} };
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${address}\n`);
  process.on('SIGTERM', () => {
    void app.close().then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`no-op server failed: ${String(error)}\n`);
  process.exit(1);
});
