import { JsonApiException, parseUuid } from '@cms/http';

/**
 * Endpoint and delivery ids are UUIDs (extensions §1): anything else names nothing, and must not
 * reach a uuid column, where Postgres would refuse it with an error (a 500 for one caller's input).
 */
export function parseUuidId(raw: string, what: string): string {
  const id = parseUuid(raw);
  if (id === undefined) throw JsonApiException.notFound(`${what} ${raw} was not found.`);
  return id;
}
