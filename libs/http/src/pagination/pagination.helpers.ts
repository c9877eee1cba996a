import { JsonApiException, type ValidationIssue } from '../errors/json-api.exception';

export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;

/** A validated page request: `page` is 1-based. */
export interface PageRequest {
  page: number;
  perPage: number;
}

export interface PageMeta {
  current_page: number;
  per_page: number;
  total: number;
  last_page: number;
}

export interface ListBody<T> {
  data: T[];
  meta: PageMeta;
}

export interface SqlWindow {
  offset: number;
  limit: number;
}

const DIGITS = /^\d+$/;

/**
 * Reads `page` and `per_page` from a parsed query string. Both problems are reported at once, each
 * pointing at its parameter.
 */
export function parsePagination(query: Readonly<Record<string, unknown>>): PageRequest {
  const issues: ValidationIssue[] = [];
  const page = readPositiveInteger(query['page'], 1);
  const perPage = readPositiveInteger(query['per_page'], DEFAULT_PER_PAGE);

  if (page === undefined) {
    issues.push(parameterIssue('page', 'The page must be an integer of at least 1.'));
  }
  if (perPage === undefined || perPage > MAX_PER_PAGE) {
    issues.push(parameterIssue('per_page', `The per_page must be an integer between 1 and ${MAX_PER_PAGE}.`));
  }
  if (page !== undefined && perPage !== undefined && !Number.isSafeInteger((page - 1) * perPage)) {
    issues.push(parameterIssue('page', 'The page is too large.'));
  }
  if (page === undefined || perPage === undefined || issues.length > 0) {
    throw JsonApiException.validation(issues);
  }
  return { page, perPage };
}

export function pageMeta(total: number, request: PageRequest): PageMeta {
  return {
    current_page: request.page,
    per_page: request.perPage,
    total,
    last_page: Math.max(1, Math.ceil(total / request.perPage)),
  };
}

export function toListBody<T>(rows: T[], meta: PageMeta): ListBody<T> {
  return { data: rows, meta };
}

export function toSqlWindow(request: PageRequest): SqlWindow {
  return { offset: (request.page - 1) * request.perPage, limit: request.perPage };
}

/** Absent means the default; anything but a plain positive integer (including a repeated parameter) is refused. */
function readPositiveInteger(value: unknown, fallback: number): number | undefined {
  if (value === undefined) {
    return fallback;
  }
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && value >= 1 ? value : undefined;
  }
  if (typeof value !== 'string' || !DIGITS.test(value)) {
    return undefined;
  }
  const parsed = Number(value);
  return Number.isSafeInteger(parsed) && parsed >= 1 ? parsed : undefined;
}

// The specification's form is a pointer; JSON:API's own for a query parameter is `parameter`, so both.
function parameterIssue(parameter: string, detail: string): ValidationIssue {
  return { detail, source: { pointer: `/data/attributes/${parameter}`, parameter } };
}
