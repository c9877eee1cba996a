import { isUtf8 } from 'node:buffer';

import { type JsonApiErrorObject, JsonApiException, jsonApiErrorObject } from '../errors/json-api.exception';
import {
  DEFAULT_MAX_VALIDATION_ERRORS,
  DEFAULT_POINTER_PREFIX,
  jsonPointer,
} from '../validation/validation-errors.mapper';

/**
 * extensions §1: a body nested deeper than this many objects and arrays is refused. The body itself is
 * level 1, so `{"a": {}}` is two levels deep.
 */
export const MAX_BODY_DEPTH = 32;

/** Where a body that is not an object is pointed at: the document's primary data as a whole. */
export const BODY_POINTER = '/data';

const NOT_VALID_JSON = 'The request body is not valid JSON.';
const NOT_UTF8 = 'The request body is not valid UTF-8.';
const EMPTY = 'The request body is empty although its Content-Type is application/json.';
const NOT_AN_OBJECT = 'The request body must be a JSON object.';

/**
 * The bytes of a JSON request body as the value a handler may trust, or a JsonApiException: 400 when the
 * bytes are not UTF-8 (checked before decoding, which would replace bad bytes with U+FFFD and let the
 * request through changed) or not JSON, 422 when the value breaks `checkJsonBody`. Every JSON body of
 * every route goes through here, the inbound webhook's after its signature check included.
 */
export function readJsonBody(bytes: Buffer): Record<string, unknown> {
  if (bytes.length === 0) throw JsonApiException.badRequest(EMPTY);
  if (!isUtf8(bytes)) throw JsonApiException.badRequest(NOT_UTF8);
  let value: unknown;
  try {
    // V8's JSON.parse is iterative: deep nesting costs memory within the body limit, never the stack.
    value = JSON.parse(bytes.toString('utf8', hasByteOrderMark(bytes) ? 3 : 0));
  } catch {
    throw JsonApiException.badRequest(NOT_VALID_JSON);
  }
  const errors = checkJsonBody(value);
  if (errors.length > 0) throw new JsonApiException(422, errors);
  return value as Record<string, unknown>;
}

/**
 * The rules of extensions §1 that hold for a body whatever its route, in one pass over the parsed value:
 * it is an object (422 at `/data`); nothing in it is nested deeper than `MAX_BODY_DEPTH` (422 at the
 * first value past the limit, e.g. `/data/attributes/a/a/…/a` with 32 names for 33 levels; nothing below
 * it is looked at); no string in it, member names included, holds U+0000 or a lone surrogate (422 at
 * the string, or at the member whose name it is); no member is named `__proto__`, nor `constructor`
 * holding an object with a `prototype` (they would rewrite prototypes when copied with Object.assign or
 * a deep merge). Pointers are `/data/attributes` + the value's JSON pointer in the body. The walk keeps
 * its own stack, so its depth never depends on the call stack.
 */
export function checkJsonBody(value: unknown): JsonApiErrorObject[] {
  if (!isPlainObject(value)) {
    return [jsonApiErrorObject(422, NOT_AN_OBJECT, { source: { pointer: BODY_POINTER } })];
  }
  const errors: JsonApiErrorObject[] = [];
  const refuse = (detail: string, at: Frame, segment: string | number): void => {
    errors.push(jsonApiErrorObject(422, detail, { source: { pointer: pointerOf(at, segment) } }));
  };
  const stack: Frame[] = [frameOf(value, 1, undefined, '')];
  while (stack.length > 0 && errors.length < DEFAULT_MAX_VALIDATION_ERRORS) {
    const frame = stack[stack.length - 1];
    if (frame.index >= frame.length) {
      stack.pop();
      continue;
    }
    const index = frame.index++;
    let segment: string | number;
    let child: unknown;
    if (frame.keys === undefined) {
      segment = index;
      child = (frame.container as unknown[])[index];
    } else {
      segment = frame.keys[index];
      child = (frame.container as Record<string, unknown>)[segment];
      const nameProblem = textProblem(segment) ?? memberNameProblem(segment, child);
      if (nameProblem !== undefined) {
        refuse(`The member name ${nameProblem}`, frame, segment);
        continue;
      }
    }
    if (typeof child === 'string') {
      const problem = textProblem(child);
      if (problem !== undefined) refuse(`The text ${problem}`, frame, segment);
    } else if (typeof child === 'object' && child !== null) {
      if (frame.depth >= MAX_BODY_DEPTH) {
        return [
          jsonApiErrorObject(
            422,
            `The request body is nested deeper than ${MAX_BODY_DEPTH} levels of objects and arrays.`,
            { source: { pointer: pointerOf(frame, segment) } },
          ),
        ];
      }
      stack.push(frameOf(child, frame.depth + 1, frame, segment));
    }
  }
  return errors;
}

/** An object or array being walked: where the walk is in it, and how to name it in a pointer. */
interface Frame {
  container: object;
  /** The member names of an object; undefined for an array. */
  keys: string[] | undefined;
  length: number;
  index: number;
  depth: number;
  parent: Frame | undefined;
  segment: string | number;
}

function frameOf(
  container: object,
  depth: number,
  parent: Frame | undefined,
  segment: string | number,
): Frame {
  const keys = Array.isArray(container) ? undefined : Object.keys(container);
  const length = keys === undefined ? (container as unknown[]).length : keys.length;
  return { container, keys, length, index: 0, depth, parent, segment };
}

/** Built only for a refusal: the walk itself never spends time on pointers. */
function pointerOf(frame: Frame, segment: string | number): string {
  const path: (string | number)[] = [segment];
  for (let at: Frame | undefined = frame; at?.parent !== undefined; at = at.parent) {
    path.push(at.segment);
  }
  return jsonPointer(DEFAULT_POINTER_PREFIX, path.reverse());
}

/** Why a string cannot be stored or carried (PostgreSQL text refuses U+0000; lone surrogates are not Unicode). */
function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'contains U+0000, which is not allowed.';
  if (!isWellFormed(text)) {
    const unit = loneSurrogateOf(text);
    return `contains a lone surrogate (U+${unit.toString(16).toUpperCase()}), which is not valid Unicode.`;
  }
  return undefined;
}

function memberNameProblem(name: string, value: unknown): string | undefined {
  if (name === '__proto__') return '__proto__ is not allowed.';
  if (name === 'constructor' && isPlainObject(value) && Object.hasOwn(value, 'prototype')) {
    return 'constructor is not allowed for an object with a prototype member.';
  }
  return undefined;
}

/** ES2024's String.prototype.isWellFormed (Node 20+), typed here because the workspace targets ES2023. */
function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

function loneSurrogateOf(text: string): number {
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        index++;
        continue;
      }
      return unit;
    }
    if (unit >= 0xdc00 && unit <= 0xdfff) return unit;
  }
  return 0xfffd;
}

function hasByteOrderMark(bytes: Buffer): boolean {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
