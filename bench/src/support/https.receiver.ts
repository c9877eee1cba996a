import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';

import type { TestCertificates } from '@cms/testing';

/** Reads the bodies of the deliveries made to paths under `prefix`. */
interface Watcher {
  prefix: string;
  /** Called once per delivery id, with its raw body and performance.now() of its arrival. */
  onDelivery(body: string, at: number): void;
}

/**
 * The webhook receiver: HTTPS on 127.0.0.1, answering 204 the moment a body has arrived, and noting
 * when each delivery came. Deliveries per second are read from here, the receiver's view; a figure
 * that needs what the deliveries say watches a path.
 */
export class HttpsReceiver {
  /** performance.now() of each first arrival of a delivery id, in order. */
  readonly arrivals: number[] = [];
  private readonly seen = new Set<string>();
  private readonly watchers: Watcher[] = [];
  /** Requests that repeated a delivery id already received (retries). */
  repeats = 0;
  port = 0;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();

  constructor(certificates: TestCertificates) {
    this.server = createServer({ cert: certificates.cert, key: certificates.key }, (request, response) => {
      const watcher = this.watchers.find((candidate) => request.url?.startsWith(candidate.prefix));
      const chunks: Buffer[] = [];
      if (watcher) request.on('data', (chunk: Buffer) => chunks.push(chunk));
      else request.resume();
      request.on('end', () => {
        const id = String(request.headers['service-delivery'] ?? '');
        if (this.seen.has(id)) this.repeats += 1;
        else {
          const at = performance.now();
          this.seen.add(id);
          this.arrivals.push(at);
          watcher?.onDelivery(Buffer.concat(chunks).toString('utf8'), at);
        }
        response.writeHead(204);
        response.end();
      });
    });
    this.server.on('secureConnection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
  }

  /** Hands the bodies of deliveries under `prefix` to `onDelivery`; returns the way to stop. */
  watch(prefix: string, onDelivery: Watcher['onDelivery']): () => void {
    const watcher = { prefix, onDelivery };
    this.watchers.push(watcher);
    return () => {
      const index = this.watchers.indexOf(watcher);
      if (index >= 0) this.watchers.splice(index, 1);
    };
  }

  url(path: string): string {
    return `https://127.0.0.1:${this.port}${path}`;
  }

  /** Distinct deliveries received. */
  get count(): number {
    return this.arrivals.length;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
