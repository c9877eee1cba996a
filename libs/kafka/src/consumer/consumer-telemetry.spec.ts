import { Registry } from 'prom-client';

import { decodedNote, kafkaMessage, noteEnvelope } from '../../test/fixtures/consumer-fakes';
import { ConsumerTelemetry, recordFields } from './consumer-telemetry';

async function values(registry: Registry, name: string): Promise<Array<{ labels: object; value: number }>> {
  const metric = await registry.getSingleMetric(name)?.get();
  return (metric?.values ?? []).map(({ labels, value }) => ({ labels, value }));
}

describe('ConsumerTelemetry', () => {
  afterEach(() => jest.useRealTimers());

  it('reports the lag of each partition from the next record to apply to its end', async () => {
    const registry = new Registry();
    const telemetry = new ConsumerTelemetry('notes', registry);

    telemetry.reportLag('in', 0, '120', '100');
    telemetry.reportLag('in', 1, '50', '50');

    expect(await values(registry, 'cms_consumer_lag')).toEqual([
      { labels: { consumer: 'notes', topic: 'in', partition: '0' }, value: 20 },
      { labels: { consumer: 'notes', topic: 'in', partition: '1' }, value: 0 },
    ]);
  });

  it('counts a partition as stalled only while records wait at a position that does not move', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const registry = new Registry();
    const telemetry = new ConsumerTelemetry('notes', registry);

    telemetry.reportLag('in', 0, '10', '4');
    jest.setSystemTime(1_003_000);
    expect(telemetry.stalledMs()).toBe(3000);
    // The same position fetched again: still waiting since the first time.
    telemetry.reportLag('in', 0, '12', '4');
    expect(telemetry.stalledMs(1_005_000)).toBe(5000);
    expect(await values(registry, 'cms_consumer_stalled_seconds')).toEqual([
      { labels: { consumer: 'notes' }, value: 3 },
    ]);

    telemetry.reportLag('in', 0, '12', '12');
    expect(telemetry.stalledMs(1_009_000)).toBe(0);
    // Records arriving at a position reached earlier wait from now.
    jest.setSystemTime(1_010_000);
    telemetry.reportLag('in', 0, '14', '12');
    expect(telemetry.stalledMs(1_011_000)).toBe(1000);
  });

  it('stops reporting the partitions another member now reads, and every partition once stopped', async () => {
    const registry = new Registry();
    const telemetry = new ConsumerTelemetry('notes', registry);
    telemetry.reportLag('in', 0, '20', '10');
    telemetry.reportLag('in', 1, '20', '10');
    telemetry.reportLag('other/topic', 2, '20', '10');

    telemetry.joined({ in: [1], 'other/topic': [2] });

    expect((await values(registry, 'cms_consumer_lag')).map(({ labels }) => labels)).toEqual([
      { consumer: 'notes', topic: 'in', partition: '1' },
      { consumer: 'notes', topic: 'other/topic', partition: '2' },
    ]);
    expect(telemetry.stalledMs(Date.now() + 1000)).toBeGreaterThan(0);

    telemetry.stopped();

    expect(await values(registry, 'cms_consumer_lag')).toEqual([]);
    expect(telemetry.stalledMs(Date.now() + 1000)).toBe(0);
  });

  it('counts what each commit applied, dead-lettered and only read past, and what was read past without one', async () => {
    const registry = new Registry();
    const telemetry = new ConsumerTelemetry('notes', registry);

    telemetry.committed('in', 10, 6, 1);
    telemetry.committed('in', 2, 2, 0);
    telemetry.readPast('in', 5);

    expect(await values(registry, 'cms_records_processed_total')).toEqual([
      { labels: { consumer: 'notes', topic: 'in', result: 'applied' }, value: 8 },
      { labels: { consumer: 'notes', topic: 'in', result: 'dead_lettered' }, value: 1 },
      { labels: { consumer: 'notes', topic: 'in', result: 'skipped' }, value: 8 },
    ]);
    expect(telemetry.stats).toMatchObject({ applied: 8, deadLettered: 1 });
  });

  it('keeps the counts, the assignment and the last failure for stats without a registry', () => {
    const telemetry = new ConsumerTelemetry('notes', undefined);
    expect(telemetry.stats).toEqual({ applied: 0, deadLettered: 0, assigned: false, lastError: undefined });

    telemetry.joined({ in: [0] });
    telemetry.committed('in', 3, 2, 1);
    telemetry.failed('connection terminated');
    expect(telemetry.stats).toEqual({
      applied: 2,
      deadLettered: 1,
      assigned: true,
      lastError: 'connection terminated',
    });

    telemetry.crashed();
    expect(telemetry.assigned).toBe(false);
    telemetry.joined({ in: [0] });
    telemetry.stopped();
    expect(telemetry.assigned).toBe(false);
  });
});

describe('recordFields', () => {
  it('names a decoded record by its envelope, and carries the trace id of its headers', () => {
    const envelope = noteEnvelope(1);
    const message = kafkaMessage(7, envelope, {
      ce_type: envelope.type,
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    });

    expect(recordFields('in', 2, message, decodedNote(envelope))).toEqual({
      topic: 'in',
      partition: 2,
      offset: '7',
      correlation_id: envelope.correlationid,
      record_type: envelope.type,
      trace_id: '0af7651916cd43dd8448eb211c80319c',
    });
  });

  it('names a record that could not be decoded by its headers, with no trace id key when it has none', () => {
    const fields = recordFields(
      'in',
      0,
      kafkaMessage(3, 'not json', { ce_type: 'x.y', correlation_id: 'c-1' }),
      null,
    );

    expect(fields).toEqual({
      topic: 'in',
      partition: 0,
      offset: '3',
      correlation_id: 'c-1',
      record_type: 'x.y',
    });
    expect('trace_id' in fields).toBe(false);
  });
});
