import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';

import { makeTestCertificates, type TestCertificates } from '@cms/testing';

/**
 * A customer's HTTPS endpoint on 127.0.0.1 (a certificate of its own, trusted through
 * `certificates.caFile`): hands every request's headers and raw body to `onDelivery`, answers 200
 * (or what `statusFor` says for the request's path: an endpoint that fails until told otherwise).
 */
export class HttpsReceiver {
  readonly certificates: TestCertificates;
  /** The status answered to a request for this path; 200 unless a test says otherwise. */
  statusFor: (path: string) => number = () => 200;
  private readonly server: Server;

  constructor(name: string, onDelivery: (headers: IncomingHttpHeaders, body: Buffer) => void) {
    this.certificates = makeTestCertificates(name);
    this.server = createServer(
      { key: this.certificates.key, cert: this.certificates.cert },
      (request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          onDelivery(request.headers, Buffer.concat(chunks));
          const status = this.statusFor(request.url ?? '/');
          response.writeHead(status).end(status >= 400 ? `refused with ${status}` : undefined);
        });
      },
    );
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  url(path: string): string {
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  stop(): void {
    this.server.close();
    this.certificates.remove();
  }
}
