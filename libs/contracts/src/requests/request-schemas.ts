import type { RecordClass, RecordTypeDefinition } from '../registry/record-type-registry';

/** The classes of a service's request types, by type: what the log carries for each request. */
export type RequestSchemas = Readonly<Record<string, RecordClass>>;

/** The payload each type of `schemas` carries, by type. */
export type PayloadsOf<S extends RequestSchemas> = { [K in keyof S]: InstanceType<S[K]> };

/** The registry's entries for requests that have one version so far. */
export function firstVersions(schemas: RequestSchemas): RecordTypeDefinition[] {
  return Object.entries(schemas).map(([type, schema]) => ({ type, version: 1, schema }));
}
