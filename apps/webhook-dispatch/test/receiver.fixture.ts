import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';

import type { TestCertificates } from './tls.fixture';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as it arrived. */
  body: string;
  /** Date.now() when the body had arrived. */
  at: number;
}

/** How the receiver answers one request; 'hang' keeps the connection open without answering. */
export type Reply =
  { status: number; body?: string; headers?: Record<string, string>; delayMs?: number } | 'hang';

export type Behaviour = (request: ReceivedRequest, received: ReceivedRequest[]) => Reply | Promise<Reply>;

/** A real HTTPS server on 127.0.0.1 with the test certificate, recording every request it gets. */
export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  /** Requests being answered now, and the most there ever were at once. */
  inFlight = 0;
  maxInFlight = 0;
  port = 0;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();

  private constructor(
    tls: TestCertificates,
    private behaviour: Behaviour,
  ) {
    this.server = createServer({ cert: tls.cert, key: tls.key }, (request, response) =>
      this.handle(request, response),
    );
    this.server.on('secureConnection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(
    tls: TestCertificates,
    behaviour: Behaviour = () => ({ status: 204 }),
  ): Promise<Receiver> {
    const receiver = new Receiver(tls, behaviour);
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    const address = receiver.server.address();
    receiver.port = typeof address === 'object' && address ? address.port : 0;
    return receiver;
  }

  url(path = '/hooks'): string {
    return `https://localhost:${this.port}${path}`;
  }

  behave(behaviour: Behaviour): void {
    this.behaviour = behaviour;
  }

  /** The requests carrying this delivery id, oldest first. */
  forDelivery(id: string): ReceivedRequest[] {
    return this.requests.filter((request) => request.headers['service-delivery'] === id);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    response.once('close', () => (this.inFlight -= 1));
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received: ReceivedRequest = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      this.requests.push(received);
      void Promise.resolve(this.behaviour(received, this.requests)).then(async (reply) => {
        if (reply === 'hang') return;
        if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
        if (response.destroyed) return;
        response.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
        response.end(reply.body ?? '');
      });
    });
  }
}
