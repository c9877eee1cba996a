import { parseIdentifier, parseUuid } from './identifier';

describe('parseIdentifier', () => {
  it.each([
    ['1', 1],
    ['42', 42],
    ['2147483648', 2147483648],
    ['1000000000000000', 1_000_000_000_000_000],
    ['9007199254740991', Number.MAX_SAFE_INTEGER],
  ])('reads %s as %d', (raw, id) => {
    expect(parseIdentifier(raw)).toBe(id);
  });

  it.each([
    ['zero', '0'],
    ['a negative number', '-1'],
    ['a signed number', '+5'],
    ['an exponent', '1e3'],
    ['hexadecimal', '0x10'],
    ['a leading zero', '007'],
    ['a fraction', '1.0'],
    ['2^53', '9007199254740992'],
    ['2^53 + 1', '9007199254740993'],
    ['seventeen digits', '10000000000000000'],
    ['surrounding spaces', ' 1'],
    ['letters', 'abc'],
    ['the empty string', ''],
    ['Arabic-Indic digits', '١٢'],
  ])('refuses %s', (_case, raw) => {
    expect(parseIdentifier(raw)).toBeUndefined();
  });
});

describe('parseUuid', () => {
  it('answers the lower-case form of a UUID', () => {
    expect(parseUuid('0B4F6A1C-2D3E-4F50-8A6B-7C8D9E0F1A2B')).toBe('0b4f6a1c-2d3e-4f50-8a6b-7c8d9e0f1a2b');
  });

  it.each(['1', 'not-a-uuid', '0b4f6a1c2d3e4f508a6b7c8d9e0f1a2b', '0b4f6a1c-2d3e-4f50-8a6b-7c8d9e0f1a2b0'])(
    'refuses %s',
    (raw) => {
      expect(parseUuid(raw)).toBeUndefined();
    },
  );
});
