import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

import {
  AreIds,
  IsId,
  isItemRuleContext,
  IsJsonOfAtMost,
  IsNotBlank,
  IsNotLaterThanAnHourAfterReceipt,
  jsonBytes,
  MAX_ID,
} from './field-rules';

class Ids {
  @IsId()
  id!: unknown;

  @AreIds()
  ids!: unknown;
}

class Named {
  @IsNotBlank()
  name!: unknown;
}

class Sized {
  @IsJsonOfAtMost(10)
  data!: unknown;
}

class Timed {
  @IsNotLaterThanAnHourAfterReceipt()
  at!: unknown;
}

function failed(cls: new () => object, body: object): string[] {
  return validateSync(plainToInstance(cls, body)).map((error) => error.property);
}

describe('identifiers in bodies', () => {
  it('are JSON numbers from 1 to 2^53 − 1', () => {
    expect(failed(Ids, { id: 1, ids: [1, 2147483648, MAX_ID] })).toEqual([]);
  });

  it.each([
    ['a string', '1'],
    ['a fraction', 1.5],
    ['zero', 0],
    ['a negative', -1],
    ['2^53', MAX_ID + 1],
    ['1e300', 1e300],
    ['null', null],
    ['an array', [1]],
  ])('refuse %s', (_what, value) => {
    expect(failed(Ids, { id: value, ids: [value] })).toEqual(['id', 'ids']);
  });

  it('name the bad items of a list by index, through the context of the failed rule', () => {
    const [error] = validateSync(plainToInstance(Ids, { id: 1, ids: [1, '2', 3, 0] }));
    const context: unknown = error?.contexts?.['areIds'];
    expect(isItemRuleContext(context)).toBe(true);
    expect(isItemRuleContext(context) && context.failingItems(error?.value)).toEqual([1, 3]);
    expect(error?.constraints?.['areIds']).toBe(
      `each of ids must be a positive integer of at most ${MAX_ID}`,
    );
  });

  it('refuse a list that is not an array', () => {
    expect(failed(Ids, { id: 1, ids: 5 })).toEqual(['ids']);
  });
});

describe('names', () => {
  it('need something besides white space', () => {
    expect(failed(Named, { name: ' Ada ' })).toEqual([]);
    for (const blank of ['', ' ', '\t\n', '\u00a0\u3000', 7])
      expect(failed(Named, { name: blank })).toEqual(['name']);
  });
});

describe('sizes', () => {
  it('count the UTF-8 bytes of the JSON', () => {
    expect(jsonBytes({ a: 'é' })).toBe(10);
    expect(failed(Sized, { data: { a: 'é' } })).toEqual([]);
    expect(failed(Sized, { data: { a: 'éé' } })).toEqual(['data']);
  });
});

describe('times after receipt', () => {
  it('take any time up to an hour from now, a far past one included', () => {
    const soon = new Date(Date.now() + 59 * 60 * 1000).toISOString();
    for (const at of [soon, '1970-01-01', '0001-01-01T00:00:00Z', new Date().toISOString()]) {
      expect(failed(Timed, { at })).toEqual([]);
    }
  });

  it('refuse a time more than an hour from now', () => {
    const late = new Date(Date.now() + 61 * 60 * 1000).toISOString();
    for (const at of [late, '9999-12-31', '9999-12-31T23:59:59Z'])
      expect(failed(Timed, { at })).toEqual(['at']);
  });

  it('leave what is not a readable time to the other rules', () => {
    expect(failed(Timed, { at: 'soon' })).toEqual([]);
    expect(failed(Timed, { at: 3 })).toEqual([]);
  });
});
