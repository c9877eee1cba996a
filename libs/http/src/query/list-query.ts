import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

import { JsonApiException, type ValidationIssue } from '../errors/json-api.exception';
import { parseIdentifier } from '../identifiers/identifier';

/** A parsed query string, as Fastify hands it over. */
export type QueryParams = Readonly<Record<string, unknown>>;

/**
 * Longest filter value read: no stored field it is compared with is longer (names, emails and
 * external ids are at most 255 characters), and a bound keeps a caller from making a query costly.
 */
const MAX_FILTER_LENGTH = 255;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function refuse(parameter: string, detail: string): JsonApiException {
  return JsonApiException.validation([
    { detail, source: { pointer: `/data/attributes/${parameter}`, parameter } },
  ]);
}

/**
 * Every value a read compares with the store is text Postgres can hold: no U+0000 (which Postgres
 * refuses in text, an error that would be a 500 for what is one caller's bad input) and no lone
 * surrogate (which the driver would silently turn into U+FFFD and compare as something else).
 */
function checkedText(parameter: string, value: string): string {
  if (value.includes('\u0000')) return fail(parameter, `${parameter} must not contain U+0000.`);
  if (LONE_SURROGATE.test(value))
    return fail(parameter, `${parameter} must be valid Unicode (a lone surrogate is not).`);
  if (value.length > MAX_FILTER_LENGTH) {
    return fail(parameter, `${parameter} must be at most ${MAX_FILTER_LENGTH} characters.`);
  }
  return value;
}

function fail(parameter: string, detail: string): never {
  throw refuse(parameter, detail);
}

/** A query parameter given once as text; absent or empty means no filter. */
export function textParam(query: QueryParams, name: string): string | undefined {
  const value = query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw refuse(name, `${name} must be given once.`);
  return checkedText(name, value);
}

/** `filter[<name>]`, whether the query string parser left it flat or nested it. */
export function filterParam(query: QueryParams, name: string): string | undefined {
  const parameter = `filter[${name}]`;
  const flat = query[parameter];
  const nested = query['filter'];
  const value = flat !== undefined ? flat : isObject(nested) ? (nested as QueryParams)[name] : undefined;
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw refuse(parameter, `${parameter} must be given once.`);
  return checkedText(parameter, value);
}

/**
 * Refuses a filter the list does not have: a misspelt `filter[emial]` would otherwise answer the
 * whole list as if everything matched.
 */
export function onlyFilters(query: QueryParams, known: readonly string[]): void {
  const allowed = new Set(known);
  const unknown: string[] = [];
  for (const key of Object.keys(query)) {
    const flat = /^filter\[(.*)\]$/.exec(key);
    if (flat) {
      if (!allowed.has(flat[1]!)) unknown.push(key);
    } else if (key === 'filter') {
      const nested = query[key];
      if (!isObject(nested)) unknown.push(key);
      else for (const name of Object.keys(nested)) if (!allowed.has(name)) unknown.push(`filter[${name}]`);
    }
  }
  if (unknown.length === 0) return;
  const names = known.map((name) => `filter[${name}]`).join(', ');
  throw JsonApiException.validation(
    unknown.map((parameter) => ({
      detail: `${parameter} is not a filter of this list; use ${names}.`,
      source: { pointer: `/data/attributes/${parameter}`, parameter },
    })),
  );
}

/** A filter whose value must be one of `allowed`. */
export function choiceFilter<T extends string>(
  query: QueryParams,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const value = filterParam(query, name);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    const parameter = `filter[${name}]`;
    throw refuse(parameter, `${parameter} must be one of ${allowed.join(', ')}.`);
  }
  return value as T;
}

export function integerFilter(query: QueryParams, name: string): number | undefined {
  const value = filterParam(query, name);
  if (value === undefined) return undefined;
  const parsed = parseIdentifier(value);
  if (parsed === undefined) {
    const parameter = `filter[${name}]`;
    throw refuse(parameter, `${parameter} must be a positive integer of at most 2^53 − 1.`);
  }
  return parsed;
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Fastify's query parser keeps a value whose percent-encoding is not UTF-8 (`%ED%A0%80`, the bytes of
 * a lone surrogate; `%FF`) as the raw text, so a read would compare something the caller never meant.
 * Such a parameter is refused, naming it.
 */
export function checkQueryEncoding(url: string): void {
  const at = url.indexOf('?');
  if (at === -1) return;
  const issues: ValidationIssue[] = [];
  for (const pair of url.slice(at + 1).split('&')) {
    const equals = pair.indexOf('=');
    const rawName = equals === -1 ? pair : pair.slice(0, equals);
    const rawValue = equals === -1 ? '' : pair.slice(equals + 1);
    const name = decoded(rawName);
    if (name === undefined || decoded(rawValue) === undefined) {
      const parameter = name ?? rawName;
      issues.push({
        detail: `${parameter} is not percent-encoded UTF-8.`,
        source: { pointer: `/data/attributes/${parameter}`, parameter },
      });
    }
  }
  if (issues.length > 0) throw JsonApiException.validation(issues);
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/**
 * `@ListQuery() query: QueryParams`: the parsed query string of a list read, once its encoding has
 * been checked (see `checkQueryEncoding`).
 */
export const ListQuery = createParamDecorator((_data: unknown, context: ExecutionContext): QueryParams => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  checkQueryEncoding(request.url);
  return request.query as QueryParams;
});
