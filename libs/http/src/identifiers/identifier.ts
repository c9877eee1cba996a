import { JsonApiException } from '../errors/json-api.exception';

/**
 * Identifiers of stored resources are positive integers up to 2^53 − 1 (extensions §1). In a path or
 * a header they arrive as text, and only the canonical decimal form names one: digits without sign,
 * exponent, radix prefix, spaces or leading zeros, so each resource has exactly one URL and nothing
 * past the bigint columns' range (or past what a JavaScript number holds exactly) reaches a query.
 */
const CANONICAL_DECIMAL = /^[1-9][0-9]{0,15}$/;

/** The identifier `raw` names, or undefined when it is not one (the caller answers 404 or 422). */
export function parseIdentifier(raw: string): number | undefined {
  if (!CANONICAL_DECIMAL.test(raw)) return undefined;
  const id = Number(raw);
  // 16 digits reach past 2^53 − 1; every such string converts to a number that is not a safe integer.
  return Number.isSafeInteger(id) ? id : undefined;
}

/**
 * What the path's id names, found by `find`, or the 404 a read answers (extensions §1): an id that is
 * not one never reaches the database, and it is answered as one that names nothing is.
 */
export async function foundByPathId<T>(
  rawId: string,
  what: string,
  find: (id: number) => Promise<T | null>,
): Promise<T> {
  const id = parseIdentifier(rawId);
  const found = id === undefined ? null : await find(id);
  if (found === null) throw JsonApiException.notFound(`${what} ${rawId} was not found.`);
  return found;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** Webhook endpoint and delivery ids: the lower-case form of a UUID, or undefined for anything else. */
export function parseUuid(raw: string): string | undefined {
  return UUID.test(raw) ? raw.toLowerCase() : undefined;
}
