import { ID_TRANSFORMER, idColumn, idFromDatabase } from './bigint-id';

describe('identifier columns', () => {
  it('read the text pg gives for int8 back as the number it names, up to 2^53 − 1', () => {
    expect(idFromDatabase('1')).toBe(1);
    expect(idFromDatabase('2147483648')).toBe(2147483648);
    expect(idFromDatabase('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
    expect(idFromDatabase(42)).toBe(42);
    expect(idFromDatabase(null)).toBeNull();
  });

  it('refuse a stored value a JavaScript number cannot hold exactly, rather than answer another id', () => {
    expect(() => idFromDatabase('9007199254740993')).toThrow(RangeError);
  });

  it('are bigint in Postgres and numbers in entities, null and absent values passed through', () => {
    expect(idColumn({ name: 'workspace_id' })).toMatchObject({ name: 'workspace_id', type: 'bigint' });
    expect(idColumn().type).toBe('bigint');
    expect(ID_TRANSFORMER.from('9007199254740990')).toBe(9007199254740990);
    expect(ID_TRANSFORMER.from(null)).toBeNull();
    expect(ID_TRANSFORMER.from(undefined)).toBeUndefined();
    expect(ID_TRANSFORMER.to(7)).toBe(7);
  });
});
