import type { FastifyInstance } from 'fastify';

/**
 * Once the server starts closing (SIGTERM), every response still being written asks its client to close
 * the connection. Without it a keep-alive connection that carried an in-flight request stays open after
 * the answer, and the server's close (and with it the pod's shutdown) waits for the client to hang up.
 */
export function installDrainOnClose(fastify: FastifyInstance): void {
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
  });
  fastify.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
}
