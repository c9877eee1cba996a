import { type JsonApiErrorObject, jsonApiErrorObject } from '../errors/json-api.exception';

/**
 * The part of class-validator's `ValidationError` (and of Nest's interface of it) that is read here, so
 * that errors of either, or of a hand-made validation, can be passed.
 */
export interface ValidationErrorLike {
  property: string;
  constraints?: Readonly<Record<string, string>>;
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
    for (const message of Object.values(error.constraints ?? {})) {
      if (result.length >= maxErrors) {
        return;
      }
      result.push(jsonApiErrorObject(422, message, { source: { pointer: toPointer(prefix, fieldPath) } }));
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

/** RFC 6901: "~" and "/" inside a field name must be escaped, or the pointer would name another field. */
function toPointer(prefix: string, fieldPath: readonly string[]): string {
  const escaped = fieldPath.map((segment) => segment.replaceAll('~', '~0').replaceAll('/', '~1'));
  return [prefix, ...escaped].join('/');
}
