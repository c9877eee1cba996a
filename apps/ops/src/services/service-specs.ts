import { SERVICE_CATALOG, type ServiceEntry } from '@cms/config';

/** What ops reads of a service: its name, default schema, consumers and carried tables. */
export type ServiceSpec = ServiceEntry;

/** The services whose consumers keep checkpoints, as they run by default: the catalog's. */
export const SERVICES: readonly ServiceSpec[] = SERVICE_CATALOG.filter(
  (service) => service.consumers.length > 0,
);

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
