import { JsonApiException, parseIdentifier } from '@cms/http';

/** Path ids arrive as strings; anything but an identifier (extensions §1) names nothing. */
export function parseId(raw: string, what: string): number {
  const id = parseIdentifier(raw);
  if (id === undefined) throw JsonApiException.notFound(`${what} ${raw} was not found.`);
  return id;
}
