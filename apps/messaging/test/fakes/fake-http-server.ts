import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';

export interface RecordedRequest {
  method: string;
  /** Path and query, as requested. */
  path: string;
  headers: Record<string, string | undefined>;
  body: Buffer;
}

export interface FakeReply {
  status: number;
  /** Sent as JSON unless a string. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Waits this long before answering (a provider slower than the adapter's timeout). */
  delayMs?: number;
}

/**
 * A local HTTP(S) server on 127.0.0.1 standing in for a provider: records every request, and answers
 * either a scripted outage (`failNext`) or what the provider's own handler decides.
 */
export class FakeHttpServer {
  readonly requests: RecordedRequest[] = [];
  private readonly outages: { remaining: number; reply: FakeReply }[] = [];
  private server!: HttpServer | HttpsServer;
  private origin = '';

  constructor(private readonly handler: (request: RecordedRequest) => FakeReply) {}

  async start(tls?: { cert: string; key: string }): Promise<this> {
    const listener = (request: IncomingMessage, response: ServerResponse): void => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => this.answer(request, Buffer.concat(chunks), response));
    };
    this.server = tls ? createHttpsServer(tls, listener) : createHttpServer(listener);
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    this.origin = `${tls ? 'https' : 'http'}://${tls ? 'localhost' : '127.0.0.1'}:${port}`;
    return this;
  }

  get baseUrl(): string {
    return this.origin;
  }

  /** Answers `reply` to the next `times` requests, whatever they are (a rate limit, an outage). */
  failNext(times: number, reply: FakeReply): void {
    this.outages.push({ remaining: times, reply });
  }

  /** Requests whose path starts with `prefix`. */
  requestsTo(prefix: string): RecordedRequest[] {
    return this.requests.filter((request) => request.path.startsWith(prefix));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(request: IncomingMessage, body: Buffer, response: ServerResponse): void {
    const recorded: RecordedRequest = {
      method: request.method ?? 'GET',
      path: request.url ?? '/',
      headers: Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [
          name,
          Array.isArray(value) ? value.join(', ') : value,
        ]),
      ),
      body,
    };
    this.requests.push(recorded);
    const outage = this.outages[0];
    let reply: FakeReply;
    if (outage !== undefined) {
      outage.remaining -= 1;
      if (outage.remaining <= 0) this.outages.shift();
      reply = outage.reply;
    } else {
      try {
        reply = this.handler(recorded);
      } catch (error) {
        reply = { status: 500, body: { error: error instanceof Error ? error.message : String(error) } };
      }
    }
    const text =
      reply.body === undefined
        ? ''
        : typeof reply.body === 'string'
          ? reply.body
          : JSON.stringify(reply.body);
    const send = (): void => {
      if (response.destroyed) return;
      response.writeHead(reply.status, {
        ...(typeof reply.body === 'object' ? { 'content-type': 'application/json' } : {}),
        ...reply.headers,
      });
      response.end(text);
    };
    if (reply.delayMs === undefined) send();
    else setTimeout(send, reply.delayMs).unref();
  }
}

/** The user and password of a Basic Authorization header. */
export function basicCredentials(header: string | undefined): { user: string; password: string } | undefined {
  const match = /^Basic\s+(.+)$/i.exec(header ?? '');
  if (match === null) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export function jsonBody(request: RecordedRequest): unknown {
  try {
    return JSON.parse(request.body.toString('utf8'));
  } catch {
    return undefined;
  }
}
