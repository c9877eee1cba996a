import { JsonApiException } from '@cms/http';

export type Query = Readonly<Record<string, unknown>>;

/** Path ids arrive as strings; anything but a positive integer names nothing (extensions §1). */
export function parseId(raw: string, what: string): number {
  const id = /^[1-9][0-9]{0,14}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw JsonApiException.notFound(`${what} ${raw} was not found.`);
  return id;
}

/** A query parameter given once as text; absent or empty means no filter. */
export function textParam(query: Query, name: string): string | undefined {
  const value = query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') {
    throw JsonApiException.validation([
      {
        detail: `${name} must be given once.`,
        source: { pointer: `/data/attributes/${name}`, parameter: name },
      },
    ]);
  }
  return value;
}

/** `filter[<name>]`, whether the query string parser left it flat or nested it. */
export function filterParam(query: Query, name: string): string | undefined {
  const flat = textParam(query, `filter[${name}]`);
  if (flat !== undefined) return flat;
  const nested = query['filter'];
  if (typeof nested === 'object' && nested !== null && !Array.isArray(nested)) {
    return textParam(nested as Query, name);
  }
  return undefined;
}

export function integerFilter(query: Query, name: string): number | undefined {
  const value = filterParam(query, name);
  if (value === undefined) return undefined;
  const parsed = /^[1-9][0-9]{0,14}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(parsed)) {
    const parameter = `filter[${name}]`;
    throw JsonApiException.validation([
      {
        detail: `${parameter} must be a positive integer.`,
        source: { pointer: `/data/attributes/${parameter}`, parameter },
      },
    ]);
  }
  return parsed;
}
