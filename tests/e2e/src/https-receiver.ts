import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';

import { makeTestCertificates, type TestCertificates } from '@cms/testing';

/**
 * A customer's HTTPS endpoint on 127.0.0.1 (a certificate of its own, trusted through
 * `certificates.caFile`): hands every request's headers and raw body to `onDelivery`, answers 200.
 */
export class HttpsReceiver {
  readonly certificates: TestCertificates;
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
          response.writeHead(200).end();
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
