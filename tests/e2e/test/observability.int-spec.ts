import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { createKafka, traceIdOf } from '@cms/kafka';
import { eventually, uniqueName } from '@cms/testing';
import type { IHeaders } from 'kafkajs';

import { System, type ServiceName } from '../src';

/**
 * What an operator sees of one request: the same correlation id and trace from the client's answer to
 * the gateway's access line, the request record, the owning service's fact and its read API; and the
 * Prometheus metrics of the services that applied it.
 */
const CLIENT_TRACE_ID = 'a3ce929d0e0e47364bf92f3577b34da6';
const CLIENT_TRACEPARENT = `00-${CLIENT_TRACE_ID}-00f067aa0ba902b7-01`;

let system: System;

beforeAll(async () => {
  system = await System.start(['gateway', 'contacts']);
}, 120000);

afterAll(async () => {
  await system?.stop();
});

function logLines(service: ServiceName): Array<Record<string, unknown>> {
  const file = join(
    __dirname,
    '..',
    '..',
    '..',
    '.local',
    'logs',
    'e2e',
    `${system.namespace}-${service}.log`,
  );
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

interface Read {
  topic: string;
  headers: IHeaders | undefined;
}

/** Reads topics from the beginning until a record with the correlation id turns up on each of them. */
async function recordsOf(topics: string[], correlationId: string): Promise<Read[]> {
  const kafka = createKafka({ brokers: system.stack.kafkaBrokers, clientId: 'e2e-observability' });
  const consumer = kafka.consumer({ groupId: uniqueName('e2e-observability'), maxWaitTimeInMs: 50 });
  const found: Read[] = [];
  await consumer.connect();
  for (const topic of topics) await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ topic, message }) => {
      if (message.headers?.['correlation_id']?.toString() === correlationId)
        found.push({ topic, headers: message.headers });
    },
  });
  try {
    await eventually(
      'a record on each topic',
      async () => topics.every((topic) => found.some((read) => read.topic === topic)),
      20000,
    );
  } finally {
    await consumer.disconnect();
  }
  return found;
}

async function metricsOf(service: ServiceName): Promise<string> {
  return (await fetch(`${system.baseUrl(service)}/metrics`)).text();
}

/** The values of a metric's series whose labels include every one of `labels`. */
function samples(text: string, metric: string, labels: Record<string, string>): number[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${metric}{`))
    .filter((line) => Object.entries(labels).every(([name, value]) => line.includes(`${name}="${value}"`)))
    .map((line) => Number(line.slice(line.lastIndexOf(' ') + 1)));
}

describe('one request, followed through the system', () => {
  let requestId: string;

  beforeAll(async () => {
    const { key } = await system.tenant();
    const answer = await system.call('POST', '/api/v1/events', {
      key,
      headers: { traceparent: CLIENT_TRACEPARENT, 'x-request-id': 'client-says-42' },
      body: { name: 'order.paid', contact: { phone: '+14155550142' } },
    });
    expect(answer.status).toBe(202);
    requestId = answer.headers.get('x-request-id')!;
  });

  it('answers with a correlation id of its own and logs the request under it, in the client trace', async () => {
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const accessLines = (): Array<Record<string, unknown>> =>
      logLines('gateway').filter(
        (line) => line['msg'] === 'request completed' && line['correlation_id'] === requestId,
      );
    // The access line is written once the response is done, and reaches the file through a pipe.
    await eventually('the access line', async () => accessLines().length > 0, 5000);
    const access = accessLines();
    expect(access).toEqual([
      expect.objectContaining({
        level: 'info',
        service: 'gateway',
        trace_id: CLIENT_TRACE_ID,
        method: 'POST',
        route: '/api/v1/events',
        status_code: 202,
        client_request_id: 'client-says-42',
      }),
    ]);
    expect(JSON.stringify(access)).not.toContain('cms_live_');
  });

  it('carries the client trace from the request record to the fact the contacts service published', async () => {
    const reads = await recordsOf([system.topics.requests, system.topics.contacts], requestId);

    for (const topic of [system.topics.requests, system.topics.contacts]) {
      const read = reads.find((candidate) => candidate.topic === topic);
      expect([topic, traceIdOf(read!.headers)]).toEqual([topic, CLIENT_TRACE_ID]);
    }
  });

  it("shows in the owning service's metrics the records it applied, no lag, and what it published", async () => {
    await eventually(
      'contacts caught up',
      async () => {
        const text = await metricsOf('contacts');
        const lags = samples(text, 'cms_consumer_lag', { topic: system.topics.requests });
        return lags.length > 0 && lags.every((lag) => lag === 0);
      },
      20000,
    );
    const text = await metricsOf('contacts');

    const applied = samples(text, 'cms_records_processed_total', {
      service: 'contacts',
      topic: system.topics.requests,
      result: 'applied',
    });
    expect(applied.reduce((sum, value) => sum + value, 0)).toBeGreaterThanOrEqual(1);
    expect(samples(text, 'cms_outbox_published_total', {})[0]).toBeGreaterThanOrEqual(2);
    expect(samples(text, 'cms_outbox_backlog', {})).toHaveLength(1);
  });

  it("passes a read's correlation id to the owning service, whose access line carries it", async () => {
    const { key } = await system.tenant();
    const answer = await system.call('GET', '/api/v1/contacts', {
      key,
      headers: { traceparent: CLIENT_TRACEPARENT },
    });
    expect(answer.status).toBe(200);
    const readId = answer.headers.get('x-request-id');

    await eventually(
      'the upstream access line',
      async () =>
        logLines('contacts').some(
          (line) =>
            line['msg'] === 'request completed' &&
            line['correlation_id'] === readId &&
            line['route'] === '/internal/v1/contacts' &&
            line['trace_id'] === CLIENT_TRACE_ID,
        ),
      5000,
    );
  });

  it('answers /health, /ready and /metrics on the gateway as its document describes them', async () => {
    const health = await system.call<{ status: string; service: string }>('GET', '/health');
    expect([health.status, health.body]).toEqual([200, { status: 'ok', service: 'gateway' }]);
    const ready = await system.call<{ status: string }>('GET', '/ready');
    expect([ready.status, ready.body.status]).toEqual([200, 'ready']);
    const metrics = await system.call<string>('GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.body).toContain('cms_circuit_breaker_state');
  });

  it('reports the upstream breakers closed while the upstream answers', async () => {
    const text = await metricsOf('gateway');

    expect(samples(text, 'cms_circuit_breaker_state', { upstream: 'contacts' })).toEqual([0]);
    expect(samples(text, 'cms_circuit_breaker_state', { upstream: 'webhook-dispatch' })).toEqual([0]);
  });
});
