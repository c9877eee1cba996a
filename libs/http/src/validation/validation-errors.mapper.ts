import { isItemRuleContext } from '@cms/contracts';

import { type JsonApiErrorObject, jsonApiErrorObject } from '../errors/json-api.exception';

/**
 * The part of class-validator's `ValidationError` (and of Nest's interface of it) that is read here, so
 * that errors of either, or of a hand-made validation, can be passed.
 */
export interface ValidationErrorLike {
  property: string;
  value?: unknown;
  constraints?: Readonly<Record<string, string>>;
  /** Per failed constraint, the context its rule gave (an ItemRuleContext names the bad items). */
  contexts?: Readonly<Record<string, unknown>>;
  children?: readonly ValidationErrorLike[];
}

export interface ValidationErrorsToJsonApiOptions {
  /** Where the validated object sits in the request; the body's attributes unless told otherwise. */
  pointerPrefix?: string;
  /**
   * A body with thousands of bad array items would otherwise produce an answer far larger than the
   * request; clients fix the first errors and try again.
   */
  maxErrors?: number;
}

export const DEFAULT_POINTER_PREFIX = '/data/attributes';
export const DEFAULT_MAX_VALIDATION_ERRORS = 100;

/**
 * One 422 error object per failed constraint, depth first in the order class-validator reports them,
 * each pointing at its field: `/data/attributes/contact/email`, `/data/attributes/contacts/3/phone`.
 * A rule about the items of an array (libs/contracts `ItemRuleContext`) points at each bad item:
 * `/data/attributes/tag_ids/2`.
 */
export function validationErrorsToJsonApi(
  errors: readonly ValidationErrorLike[],
  options: ValidationErrorsToJsonApiOptions = {},
): JsonApiErrorObject[] {
  const prefix = options.pointerPrefix ?? DEFAULT_POINTER_PREFIX;
  const maxErrors = options.maxErrors ?? DEFAULT_MAX_VALIDATION_ERRORS;
  const result: JsonApiErrorObject[] = [];

  const visit = (error: ValidationErrorLike, path: readonly string[]): void => {
    const fieldPath = [...path, error.property];
    for (const [constraint, message] of Object.entries(error.constraints ?? {})) {
      const context = error.contexts?.[constraint];
      const items = isItemRuleContext(context) ? context.failingItems(error.value) : [];
      const pointers =
        items.length > 0
          ? items.map((index) => jsonPointer(prefix, [...fieldPath, String(index)]))
          : [jsonPointer(prefix, fieldPath)];
      for (const pointer of pointers) {
        if (result.length >= maxErrors) {
          return;
        }
        result.push(jsonApiErrorObject(422, message, { source: { pointer } }));
      }
    }
    for (const child of error.children ?? []) {
      visit(child, fieldPath);
    }
  };
  for (const error of errors) {
    visit(error, []);
  }
  return result;
}

/**
 * `prefix` followed by one reference token per segment: `/data/attributes/contacts/3/phone`. RFC 6901:
 * "~" and "/" inside a field name must be escaped, or the pointer would name another field.
 */
export function jsonPointer(prefix: string, fieldPath: readonly (string | number)[]): string {
  const escaped = fieldPath.map((segment) =>
    typeof segment === 'number' ? String(segment) : segment.replaceAll('~', '~0').replaceAll('/', '~1'),
  );
  return [prefix, ...escaped].join('/');
}
