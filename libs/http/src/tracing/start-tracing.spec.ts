import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { context, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';

import { startTracing } from './start-tracing';

interface ExportedSpans {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans: Array<{ spans: Array<{ name: string; traceId: string; parentSpanId?: string }> }>;
  }>;
}

describe('startTracing', () => {
  let collector: Server;
  const received: ExportedSpans[] = [];

  beforeAll(async () => {
    collector = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        if (request.url === '/v1/traces') received.push(JSON.parse(body) as ExportedSpans);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    await new Promise((resolve) => collector.close(resolve));
  });

  it('continues a W3C traceparent and exports the spans over OTLP when an endpoint is configured', async () => {
    const tracing = startTracing('contacts');
    const parent = propagation.extract(ROOT_CONTEXT, {
      traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    });

    const carrier: Record<string, string> = {};
    const span = trace.getTracer('test').startSpan('apply record', {}, parent);
    context.with(trace.setSpan(parent, span), () => propagation.inject(context.active(), carrier));
    span.end();
    await tracing.flush();

    expect(tracing).toMatchObject({ service: 'contacts', exporting: true });
    expect(carrier.traceparent).toMatch(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01$/);
    const [batch] = received;
    expect(batch!.resourceSpans[0]!.resource.attributes).toContainEqual({
      key: 'service.name',
      value: { stringValue: 'contacts' },
    });
    expect(batch!.resourceSpans[0]!.scopeSpans[0]!.spans[0]).toMatchObject({
      name: 'apply record',
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      parentSpanId: '00f067aa0ba902b7',
    });
  });

  it('keeps the first setup of the process when another app starts tracing', () => {
    expect(startTracing('gateway').service).toBe('contacts');
  });
});
