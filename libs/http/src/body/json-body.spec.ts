import type { JsonApiErrorObject } from '../errors/json-api.exception';
import { JsonApiException } from '../errors/json-api.exception';
import { checkJsonBody, MAX_BODY_DEPTH, readJsonBody } from './json-body';

/** The answer `readJsonBody` gives for these bytes: the value, or the status and errors it refuses with. */
function read(bytes: Buffer | string): { status: number; errors: readonly JsonApiErrorObject[] } | unknown {
  try {
    return readJsonBody(typeof bytes === 'string' ? Buffer.from(bytes) : bytes);
  } catch (error) {
    if (!(error instanceof JsonApiException)) throw error;
    return { status: error.getStatus(), errors: error.errors };
  }
}

function refusal(status: number, detail: string | RegExp, pointer?: string): unknown {
  return {
    status,
    errors: [
      expect.objectContaining({
        status: String(status),
        detail: typeof detail === 'string' ? detail : expect.stringMatching(detail),
        ...(pointer === undefined ? {} : { source: { pointer } }),
      }),
    ],
  };
}

/** `{"a": {"a": … 1 …}}` with `levels` objects in all. */
function nestedObjects(levels: number): string {
  return '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);
}

describe('readJsonBody', () => {
  it('returns the object a valid body holds, multi-byte text and escaped surrogate pairs included', () => {
    expect(read('{"name": "Zoë 😀", "escaped": "\\ud83d\\ude00", "n": [1, {"b": null}]}')).toEqual({
      name: 'Zoë 😀',
      escaped: '😀',
      n: [1, { b: null }],
    });
  });

  it('ignores a UTF-8 byte order mark, as the JSON parser it replaces did', () => {
    expect(read(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]))).toEqual({ a: 1 });
  });

  it.each([
    ['a truncated sequence', [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x22, 0x7d]],
    ['a lone continuation byte', [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0x80, 0x22, 0x7d]],
    ['an overlong encoding of "/"', [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d]],
    ['an encoded surrogate (CESU-8)', [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]],
    ['Latin-1 text', [...Buffer.from('{"name":"Zo'), 0xeb, ...Buffer.from('"}')]],
  ])('answers 400 to bytes that are not UTF-8 (%s) instead of repairing them', (_case, bytes) => {
    expect(read(Buffer.from(bytes))).toEqual({
      status: 400,
      errors: [{ status: '400', title: 'Bad Request', detail: 'The request body is not valid UTF-8.' }],
    });
  });

  it.each(['{"a": ', 'name=vip', '   ', "{'a': 1}", '{"a": 1} {"b": 2}'])(
    'answers 400 to %j, which is not JSON',
    (text) => {
      expect(read(text)).toEqual(refusal(400, 'The request body is not valid JSON.'));
    },
  );

  it('answers 400 to an empty body', () => {
    expect(read('')).toEqual(refusal(400, /empty/));
  });

  it.each(['null', '[]', '[{"a": 1}]', '"text"', '42', 'true'])(
    'answers 422 at /data to %s, which is not an object',
    (text) => {
      expect(read(text)).toEqual(refusal(422, 'The request body must be a JSON object.', '/data'));
    },
  );

  it('refuses a body nested 10,000 levels deep with a 422, without overflowing the stack', () => {
    const arrays = '{"a":' + '['.repeat(10_000) + ']'.repeat(10_000) + '}';
    const objects = nestedObjects(10_000);

    const pointer = '/data/attributes/a' + '/0'.repeat(MAX_BODY_DEPTH - 1);
    expect(read(arrays)).toEqual(refusal(422, /nested deeper than 32 levels/, pointer));
    expect(read(objects)).toEqual(
      refusal(422, /nested deeper than 32 levels/, '/data/attributes' + '/a'.repeat(MAX_BODY_DEPTH)),
    );
  });

  it('refuses the widest nesting a 1 MiB body can hold', () => {
    const half = 512 * 1024 - 8;
    const text = '{"a":' + '['.repeat(half) + ']'.repeat(half) + '}';

    expect(read(text)).toEqual(refusal(422, /nested deeper/));
  });

  it('accepts 32 levels and points at the 33rd, the first value past the limit', () => {
    expect(read(nestedObjects(MAX_BODY_DEPTH))).toEqual(expect.objectContaining({ a: expect.any(Object) }));
    expect(read(nestedObjects(MAX_BODY_DEPTH + 1))).toEqual(
      refusal(422, /nested deeper/, '/data/attributes' + '/a'.repeat(MAX_BODY_DEPTH)),
    );
  });

  it('names the first too-deep value in document order', () => {
    const deep = '[' + nestedObjects(MAX_BODY_DEPTH - 1) + ']';
    const text = `{"shallow": {"x": 1}, "list": [0, ${deep}], "later": ${deep}}`;

    expect(read(text)).toEqual(
      // The body, `list`, the array around `deep`, then objects: the 33rd level is 29 names below.
      refusal(422, /nested deeper/, '/data/attributes/list/1/0' + '/a'.repeat(MAX_BODY_DEPTH - 3)),
    );
  });
});

describe('checkJsonBody', () => {
  it('accepts an object holding valid text, surrogate pairs in names and values included', () => {
    expect(checkJsonBody({ 'emoji 😀': '😀', data: { list: ['a', { b: 'ü' }] }, n: 1, f: false })).toEqual(
      [],
    );
  });

  it('points at U+0000 in a value, however deep in custom data', () => {
    expect(checkJsonBody({ name: 'ok', data: { notes: ['fine', 'nul\u0000here'] } })).toEqual([
      {
        status: '422',
        title: 'Validation Error',
        detail: 'The text contains U+0000, which is not allowed.',
        source: { pointer: '/data/attributes/data/notes/1' },
      },
    ]);
  });

  it('points at the member whose name holds U+0000', () => {
    expect(checkJsonBody({ data: { 'a\u0000b': 1 } })).toEqual([
      expect.objectContaining({
        detail: 'The member name contains U+0000, which is not allowed.',
        source: { pointer: '/data/attributes/data/a\u0000b' },
      }),
    ]);
  });

  it.each([
    ['a high surrogate', 'x\ud800y', 'D800'],
    ['a low surrogate', '\udc00', 'DC00'],
    ['a high surrogate at the end', 'abc\udbff', 'DBFF'],
    ['a low one before a high one', '\ude00\ud83d', 'DE00'],
  ])('points at a lone surrogate in a value (%s)', (_case, text, unit) => {
    expect(checkJsonBody({ data: { text } })).toEqual([
      expect.objectContaining({
        status: '422',
        detail: `The text contains a lone surrogate (U+${unit}), which is not valid Unicode.`,
        source: { pointer: '/data/attributes/data/text' },
      }),
    ]);
  });

  it('points at a member whose name holds a lone surrogate', () => {
    expect(checkJsonBody({ ['k\udfff']: 'v' })).toEqual([
      expect.objectContaining({ source: { pointer: '/data/attributes/k\udfff' } }),
    ]);
  });

  it('escapes "~" and "/" in the pointer, as JSON Pointer requires', () => {
    expect(checkJsonBody({ 'a/b': { 'c~d': ['\u0000'] } })).toEqual([
      expect.objectContaining({ source: { pointer: '/data/attributes/a~1b/c~0d/0' } }),
    ]);
  });

  it('lists every bad string, in document order', () => {
    const errors = checkJsonBody({ a: '\u0000', b: ['ok', '\ud800'], c: { '\u0000': 'x' } });

    expect(errors.map((error) => error.source?.pointer)).toEqual([
      '/data/attributes/a',
      '/data/attributes/b/1',
      '/data/attributes/c/\u0000',
    ]);
  });

  it('stops at 100 errors, however many bad strings the body holds', () => {
    expect(checkJsonBody({ list: Array.from({ length: 5000 }, () => '\u0000') })).toHaveLength(100);
  });

  it('refuses members that would rewrite a prototype when copied', () => {
    const poisoned = JSON.parse(
      '{"data": {"__proto__": {"admin": true}}, "x": {"constructor": {"prototype": {}}}}',
    ) as unknown;

    expect(checkJsonBody(poisoned)).toEqual([
      expect.objectContaining({ status: '422', source: { pointer: '/data/attributes/data/__proto__' } }),
      expect.objectContaining({ status: '422', source: { pointer: '/data/attributes/x/constructor' } }),
    ]);
    expect(checkJsonBody({ constructor: 'a name like any other' })).toEqual([]);
  });
});
