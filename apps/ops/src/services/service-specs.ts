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
  /** Why `ops replay` cannot rebuild it yet, when it cannot. */
  replayUnsupported?: string;
}

/** The services whose consumers keep checkpoints, as they run by default. */
export const SERVICES: readonly ServiceSpec[] = [
  {
    name: 'gateway',
    schema: 'gateway',
    consumers: [{ name: 'gateway', topics: ['requests'] }],
    replayUnsupported:
      'the gateway hands out ids from sequences that a rebuild must not reset; it has no rebuild command yet',
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
    replayUnsupported:
      'its schema also holds delivery jobs and endpoint switch-offs that are not in the log; it has no rebuild command yet',
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
