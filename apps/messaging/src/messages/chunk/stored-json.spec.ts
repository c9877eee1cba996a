import { storedJson } from './stored-json';

describe('storedJson', () => {
  it('orders members as jsonb does: shorter keys first, then by their bytes', () => {
    const value = storedJson({ status: 'sent', at: 'x', source: 'api', nested: { bb: 1, a: 2, é: 3 } });
    expect(Object.keys(value)).toEqual(['at', 'nested', 'source', 'status']);
    // 'é' is two bytes in UTF-8: after the one-byte 'a', beside the two-byte 'bb' by its bytes.
    expect(Object.keys(value.nested)).toEqual(['a', 'bb', 'é']);
  });

  it('leaves out what JSON leaves out and writes what JSON writes', () => {
    const at = new Date('2026-11-24T10:00:00.000Z');
    expect(storedJson({ gone: undefined, none: Number.NaN, list: [undefined, 1], at, zero: -0 })).toEqual({
      at: '2026-11-24T10:00:00.000Z',
      list: [null, 1],
      none: null,
      zero: 0,
    });
    expect(storedJson(null)).toBeNull();
  });
});
