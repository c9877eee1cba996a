import { JsonApiException } from '../errors/json-api.exception';
import { checkQueryEncoding, filterParam, integerFilter, onlyFilters, textParam } from './list-query';

function refusal(run: () => unknown): { status: number; parameters: Array<string | undefined> } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof JsonApiException)) throw error;
    return { status: error.getStatus(), parameters: error.errors.map((e) => e.source?.parameter) };
  }
  throw new Error('expected a refusal');
}

describe('filterParam', () => {
  it('reads a filter whether the query string parser left it flat or nested it', () => {
    expect(filterParam({ 'filter[phone]': '+1' }, 'phone')).toBe('+1');
    expect(filterParam({ filter: { phone: '+1' } }, 'phone')).toBe('+1');
    expect(filterParam({}, 'phone')).toBeUndefined();
    expect(filterParam({ 'filter[phone]': '' }, 'phone')).toBeUndefined();
  });

  it.each([
    ['U+0000', 'a\u0000b'],
    ['a lone high surrogate', 'a\uD800b'],
    ['a lone low surrogate', '\uDC00'],
    ['256 characters', 'x'.repeat(256)],
    ['a repeated parameter', ['1', '2']],
  ])('answers 422 naming filter[phone] for %s', (_case, value) => {
    expect(refusal(() => filterParam({ 'filter[phone]': value }, 'phone'))).toEqual({
      status: 422,
      parameters: ['filter[phone]'],
    });
  });

  it('takes a pair of surrogates, which is one character', () => {
    expect(filterParam({ 'filter[search]': '😀' }, 'search')).toBe('😀');
  });
});

describe('textParam and integerFilter', () => {
  it('refuses U+0000 in a plain parameter', () => {
    expect(refusal(() => textParam({ name: '\u0000' }, 'name'))).toEqual({
      status: 422,
      parameters: ['name'],
    });
  });

  it('reads identifiers up to 2^53 − 1 and refuses every other form', () => {
    expect(integerFilter({ 'filter[contact_id]': '9007199254740991' }, 'contact_id')).toBe(9007199254740991);
    for (const raw of ['0', '1e3', '9007199254740992', '-1']) {
      expect(refusal(() => integerFilter({ 'filter[contact_id]': raw }, 'contact_id')).status).toBe(422);
    }
  });
});

describe('onlyFilters', () => {
  it('answers 422 naming each filter the list does not have', () => {
    expect(
      refusal(() =>
        onlyFilters({ 'filter[emial]': 'a', 'filter[phone]': '1', filter: { colour: 'x' } }, ['phone']),
      ),
    ).toEqual({ status: 422, parameters: ['filter[emial]', 'filter[colour]'] });
    expect(refusal(() => onlyFilters({ filter: 'x' }, ['phone'])).parameters).toEqual(['filter']);
  });

  it('lets known filters and other parameters through', () => {
    expect(() => onlyFilters({ 'filter[phone]': '1', page: '2', per_page: '5' }, ['phone'])).not.toThrow();
  });
});

describe('checkQueryEncoding', () => {
  it('answers 422 for a parameter whose percent-encoding is not UTF-8', () => {
    expect(refusal(() => checkQueryEncoding('/x?page=1&filter[phone]=%ED%A0%80'))).toEqual({
      status: 422,
      parameters: ['filter[phone]'],
    });
    expect(refusal(() => checkQueryEncoding('/x?filter[search]=%FF')).parameters).toEqual(['filter[search]']);
  });

  it('takes UTF-8, a literal percent sign encoded as %25, plus signs and bare names', () => {
    expect(() => checkQueryEncoding('/x?filter[search]=%F0%9F%98%80&a=%2541&b=1+2&c')).not.toThrow();
    expect(() => checkQueryEncoding('/x')).not.toThrow();
  });
});
