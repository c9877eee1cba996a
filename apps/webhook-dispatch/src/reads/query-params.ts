import { JsonApiException } from '@cms/http';

export type Query = Readonly<Record<string, unknown>>;

/** `filter[<name>]` given once, whether the query string parser left it flat or nested it. */
export function filterParam(query: Query, name: string): string | undefined {
  const flat = query[`filter[${name}]`];
  const nested = query['filter'];
  const value =
    flat !== undefined
      ? flat
      : typeof nested === 'object' && nested !== null && !Array.isArray(nested)
        ? (nested as Query)[name]
        : undefined;
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') {
    const parameter = `filter[${name}]`;
    throw JsonApiException.validation([
      {
        detail: `${parameter} must be given once.`,
        source: { pointer: `/data/attributes/${parameter}`, parameter },
      },
    ]);
  }
  return value;
}

/** A filter whose value must be one of `allowed`. */
export function choiceFilter<T extends string>(
  query: Query,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const value = filterParam(query, name);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    const parameter = `filter[${name}]`;
    throw JsonApiException.validation([
      {
        detail: `${parameter} must be one of ${allowed.join(', ')}.`,
        source: { pointer: `/data/attributes/${parameter}`, parameter },
      },
    ]);
  }
  return value as T;
}
