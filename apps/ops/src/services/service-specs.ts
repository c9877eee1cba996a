import type { TopicKey } from '@cms/contracts';

export interface ConsumerSpec {
  /** The checkpoint owner (and, under the topic namespace, the consumer group). */
  name: string;
  topics: TopicKey[];
}

export interface ServiceSpec {
  name: string;
  /** The schema the service runs on unless `--schema` says otherwise. */
  schema: string;
  consumers: ConsumerSpec[];
  /**
   * Tables of the schema that are not derived from the log (jobs, operational counters), in the order
   * they can be inserted: a rebuild in place keeps them, and a blue/green switch copies them from the
   * live schema into the new one. (Free-standing sequences, such as the gateway's id sequences, are
   * carried over at every switch.)
   */
  carriedTables?: string[];
}

/** The services whose consumers keep checkpoints, as they run by default. */
export const SERVICES: readonly ServiceSpec[] = [
  {
    name: 'gateway',
    schema: 'gateway',
    consumers: [{ name: 'gateway', topics: ['requests'] }],
  },
  {
    name: 'contacts',
    schema: 'contacts',
    consumers: [{ name: 'contacts', topics: ['requests'] }],
  },
  {
    name: 'webhook-dispatch',
    schema: 'webhook_dispatch',
    consumers: [
      { name: 'webhook-dispatch', topics: ['requests'] },
      { name: 'webhook-dispatch.facts', topics: ['contacts'] },
    ],
    carriedTables: ['webhook_deliveries', 'webhook_attempts', 'webhook_endpoint_failures'],
  },
];

export function serviceSpec(name: string): ServiceSpec {
  const spec = SERVICES.find((service) => service.name === name);
  if (!spec)
    throw new UsageError(
      `unknown service ${JSON.stringify(name)} (services: ${SERVICES.map((s) => s.name).join(', ')})`,
    );
  return spec;
}

/** A command line that cannot be run as given: exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
