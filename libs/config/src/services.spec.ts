import { EnvReader } from './env-reader';
import { SERVICE_CATALOG, SERVICE_NAMES, upstreamsOf, upstreamUrlVariable } from './services';

describe('the service catalog', () => {
  const distinct = (values: readonly unknown[]) => new Set(values).size === values.length;

  it('gives every service a port, a schema and checkpoint owners of its own', () => {
    expect(distinct(SERVICE_NAMES)).toBe(true);
    expect(distinct(SERVICE_CATALOG.map((service) => service.httpPort))).toBe(true);
    expect(distinct(SERVICE_CATALOG.map((service) => service.schema))).toBe(true);
    expect(
      distinct(SERVICE_CATALOG.flatMap((service) => service.consumers.map((consumer) => consumer.name))),
    ).toBe(true);
  });

  it('names schemas and consumers as the services accept them from DATABASE_SCHEMA and CONSUMER_NAME', () => {
    for (const service of SERVICE_CATALOG) {
      const reader = new EnvReader({ DATABASE_SCHEMA: service.schema });
      expect(reader.identifier('DATABASE_SCHEMA', '')).toBe(service.schema);
      for (const consumer of service.consumers)
        expect(new EnvReader({ CONSUMER_NAME: consumer.name }).consumerName('CONSUMER_NAME', '')).toBe(
          consumer.name,
        );
    }
  });

  it("reads the gateway's upstreams from CONTACTS_URL, WEBHOOK_DISPATCH_URL, MESSAGING_URL, SEGMENTS_URL, AUTOMATIONS_URL and BROADCASTS_URL", () => {
    expect(upstreamsOf('gateway').map((upstream) => upstreamUrlVariable(upstream.name))).toEqual([
      'CONTACTS_URL',
      'WEBHOOK_DISPATCH_URL',
      'MESSAGING_URL',
      'SEGMENTS_URL',
      'AUTOMATIONS_URL',
      'BROADCASTS_URL',
    ]);
  });
});
