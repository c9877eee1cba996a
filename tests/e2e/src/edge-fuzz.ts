import fc from 'fast-check';

import { nestedArrays, nestedObjects } from './hostile';

/**
 * Generators for fuzzing the edge against extensions §1: a valid body of a route with one rule broken
 * at a time, and the answer §1 gives for exactly that break. A route names where its text, its
 * free-form objects and its identifiers sit, so every break lands on a field the route really has.
 */

/** A place in a body, as the members and indexes leading to it. */
export type FieldPath = Array<string | number>;

export interface FuzzRoute {
  name: string;
  method: 'POST' | 'PUT' | 'PATCH';
  /** Who the request is sent as. */
  caller: 'api' | 'admin' | 'inbound';
  /** A body the route accepts. */
  body: Record<string, unknown>;
  /** Strings §1's text rules apply to (NUL, lone surrogates, invalid UTF-8). */
  text: FieldPath[];
  /** Members that must be JSON objects (a string, an array or a number there is the wrong type). */
  objects?: FieldPath[];
  /** Objects that hold anything valid (custom data): text and depth rules still reach inside. */
  freeForm?: FieldPath[];
  /** Members that must be strings (an object or an array there is the wrong type). */
  strings?: FieldPath[];
  /** Identifiers of stored resources in the body. */
  ids?: FieldPath[];
}

/** One broken request: the bytes, its Content-Type, and what §1 says the answer is. */
export interface Broken {
  rule: string;
  body: Buffer;
  contentType: string;
  status: 400 | 415 | 422;
  /** A pointer one of the errors must carry, when §1 fixes it. */
  pointer?: string;
}

/** §1's pointer for a place in the body. */
export function pointerOf(path: FieldPath): string {
  return `/data/attributes/${path.map((part) => String(part).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** A copy of `body` with `value` at `path` (missing objects on the way are made). */
export function withValue(
  body: Record<string, unknown>,
  path: FieldPath,
  value: unknown,
): Record<string, unknown> {
  const copy = clone(body);
  let node = copy as Record<string | number, unknown>;
  for (const part of path.slice(0, -1)) {
    node[part] ??= {};
    node = node[part] as Record<string | number, unknown>;
  }
  node[path[path.length - 1]!] = value;
  return copy;
}

const MARK = 'FUZZ_RAW_MARK';

/** `body` as JSON with the raw bytes `raw` where the member at `path` holds its value. */
function withRaw(body: Record<string, unknown>, path: FieldPath, raw: Buffer | string): Buffer {
  const [before, after] = JSON.stringify(withValue(body, path, MARK)).split(`"${MARK}"`) as [string, string];
  return described(Buffer.concat([Buffer.from(before), Buffer.from(raw), Buffer.from(after)]));
}

/** `bytes`, printed in fast-check's reports by its start and length instead of every byte. */
export function described(bytes: Buffer): Buffer {
  const head = bytes.subarray(0, 60).toString('latin1');
  const preview = `<${bytes.length} bytes: ${JSON.stringify(head)}${bytes.length > 60 ? '…' : ''}>`;
  Object.defineProperty(bytes, fc.toStringMethod, { value: () => preview, configurable: true });
  return bytes;
}

const json = (value: unknown) => described(Buffer.from(JSON.stringify(value)));

/** A string with `inserted` somewhere in an ordinary one. */
const spliced = (inserted: fc.Arbitrary<string>) =>
  fc
    .tuple(
      fc.string({ unit: 'grapheme-ascii', maxLength: 12 }),
      inserted,
      fc.string({ unit: 'grapheme-ascii', maxLength: 12 }),
    )
    .map(([head, middle, tail]) => `${head}${middle}${tail}`);

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));

/** Byte sequences that are not UTF-8: stray bytes, overlong forms, encoded surrogates, cut sequences. */
export const INVALID_UTF8: number[][] = [
  [0xff],
  [0xfe, 0xff],
  [0x80],
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xed, 0xbf, 0xbf],
  [0xe2, 0x82],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
];

/** Content types that are not `application/json` (§1: 415). */
export const NOT_JSON = [
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'application/xml',
  'application/octet-stream',
  'text/json',
];

/** Identifiers no workspace holds: beyond 2^31 - 1 and 2^53 - 1, not positive, not integers, not numbers. */
export const BAD_IDS = [
  '2147483648',
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '99999999999999999999999',
  '0',
  '-1',
  '1.5',
  '1e400',
  '"12"',
  'true',
  'null',
];

/** A valid body of `route` with exactly one rule of §1 broken, and the answer that rule gives. */
export function broken(route: FuzzRoute): fc.Arbitrary<Broken> {
  const J = 'application/json';
  const place = <T>(paths: FieldPath[] | undefined, rest: (path: FieldPath) => fc.Arbitrary<T>) =>
    paths && paths.length > 0 ? [fc.constantFrom(...paths).chain(rest)] : [];
  const textAt = (rule: string, inserted: fc.Arbitrary<string>) =>
    place(route.text, (path) =>
      spliced(inserted).map((value): Broken => ({
        rule: `${rule} at ${pointerOf(path)}`,
        body: json(withValue(route.body, path, value)),
        contentType: J,
        status: 422,
        pointer: pointerOf(path),
      })),
    );
  const options: Array<fc.Arbitrary<Broken>> = [
    ...textAt('NUL', fc.constant('\u0000')),
    ...textAt('a lone surrogate', loneSurrogate),
    ...place(route.text, (path) =>
      fc.constantFrom(...INVALID_UTF8).map((bytes): Broken => ({
        rule: `invalid UTF-8 ${bytes.map((byte) => byte.toString(16)).join(' ')} at ${pointerOf(path)}`,
        body: withRaw(
          route.body,
          path,
          Buffer.concat([Buffer.from('"a'), Buffer.from(bytes), Buffer.from('b"')]),
        ),
        contentType: J,
        status: 400,
      })),
    ),
    // A free-form object may hold anything valid; a key or a value anywhere inside it is still text.
    ...place(route.freeForm, (path) =>
      fc
        .tuple(
          fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/),
          fc.boolean(),
          fc.oneof(fc.constant('\u0000'), loneSurrogate),
        )
        .map(([key, inKey, bad]): Broken => {
          const value = inKey ? { [`${key}${bad}`]: 1 } : { [key]: `x${bad}` };
          return {
            rule: `${inKey ? 'a key' : 'a value'} with ${JSON.stringify(bad)} in ${pointerOf(path)}`,
            body: json(withValue(route.body, path, value)),
            contentType: J,
            status: 422,
            pointer: inKey ? undefined : pointerOf([...path, key]),
          };
        }),
    ),
    ...place(route.objects, (path) =>
      fc.constantFrom<unknown>('text', [], [{}], 42, true).map((value): Broken => ({
        rule: `${JSON.stringify(value)} where ${pointerOf(path)} must be an object`,
        body: json(withValue(route.body, path, value)),
        contentType: J,
        status: 422,
        pointer: pointerOf(path),
      })),
    ),
    ...place(route.strings, (path) =>
      fc.constantFrom<unknown>([], ['a'], {}, { a: 'b' }).map((value): Broken => ({
        rule: `${JSON.stringify(value)} where ${pointerOf(path)} must be a string`,
        body: json(withValue(route.body, path, value)),
        contentType: J,
        status: 422,
        pointer: pointerOf(path),
      })),
    ),
    ...place(route.ids, (path) =>
      fc.constantFrom(...BAD_IDS).map((raw): Broken => ({
        rule: `identifier ${raw} at ${pointerOf(path)}`,
        body: withRaw(route.body, path, raw),
        contentType: J,
        status: 422,
        pointer: pointerOf(path),
      })),
    ),
    // Deeper than 32 levels, in the member that may nest (or a new one where none may).
    fc
      .tuple(
        fc.integer({ min: 33, max: 5000 }),
        fc.boolean(),
        fc.constantFrom(...(route.freeForm ?? [['nested']])),
      )
      .map(([depth, arrays, path]): Broken => ({
        rule: `${depth} levels of ${arrays ? 'arrays' : 'objects'} at ${pointerOf(path)}`,
        body: withRaw(route.body, path, arrays ? nestedArrays(depth) : nestedObjects(depth)),
        contentType: J,
        status: 422,
      })),
    fc
      .constantFrom('null', '[]', '[{}]', '"text"', '42', 'true', JSON.stringify([route.body]))
      .map((raw): Broken => ({
        rule: `the body ${raw.slice(0, 40)}`,
        body: Buffer.from(raw),
        contentType: J,
        status: 422,
      })),
    fc.constantFrom(...NOT_JSON).map((contentType): Broken => ({
      rule: `Content-Type ${contentType}`,
      body: json(route.body),
      contentType,
      status: 415,
    })),
  ];
  return fc.oneof(...options);
}

/** Bytes that are not a JSON text in UTF-8 at all. */
function unparsable(bytes: Buffer): boolean {
  try {
    JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return false;
  } catch {
    return true;
  }
}

/**
 * Hostile bodies: NUL and lone surrogates in keys and values of arbitrary JSON, deep nesting, huge and
 * odd numbers where ids and names go, bytes that are not UTF-8, random bytes. `refused` says whether
 * §1 refuses the body whatever the route (otherwise only a 5xx is wrong: the route may accept it).
 */
export const hostileBodies: fc.Arbitrary<{ body: Buffer; refused: boolean }> = fc.oneof(
  fc.jsonValue({ depthSize: 'medium' }).chain((value) =>
    fc.tuple(fc.constantFrom('\u0000', '\ud800', '\udfff'), fc.boolean()).map(([bad, asKey]) => ({
      body: json(asKey ? { [`k${bad}`]: value } : { name: `n${bad}`, data: value }),
      refused: true,
    })),
  ),
  fc.tuple(fc.integer({ min: 33, max: 20000 }), fc.boolean()).map(([depth, arrays]) => ({
    body: described(Buffer.from(arrays ? nestedArrays(depth) : nestedObjects(depth))),
    refused: true,
  })),
  fc.constantFrom(...BAD_IDS).map((raw) => ({
    body: described(Buffer.from(`{"contact_id":${raw},"tag_ids":[${raw}],"name":${raw}}`)),
    refused: false,
  })),
  fc.constantFrom(...INVALID_UTF8).map((bytes) => ({
    body: described(Buffer.concat([Buffer.from('{"name":"'), Buffer.from(bytes), Buffer.from('"}')])),
    refused: true,
  })),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => {
    const body = described(Buffer.from(bytes));
    // Zero bytes are no body (docs/api-notes.md): a route that takes none accepts them.
    return { body, refused: body.length > 0 && unparsable(body) };
  }),
);
