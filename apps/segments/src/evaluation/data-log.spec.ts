import { resolveDataPath } from '@cms/contracts';

import { DataLog } from './data-log';
import { seededRandom } from './synthetic-workspace';

/** What a path reader answers for a value found by resolveDataPath: containers read as null. */
function asRead(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? null : value;
}

describe('DataLog', () => {
  it('reads back every scalar at its path, with containers as null, as resolveDataPath finds them', () => {
    const log = new DataLog();
    const rows: Array<Record<string, unknown>> = [
      {},
      { plan: 'pro', score: 42, ratio: 0.25, big: 2 ** 40, negative: -7, vip: true, off: false, none: null },
      { name: 'Élodie 日本 😀', nested: { deeper: { value: 'x', list: [1, 'two', { three: 3 }, [4]] } } },
      { score: -2147483648, huge: 1e300, tiny: -1e-300, zero: -0, max: 2147483647, over: 2147483648 },
      { list: [], object: {}, text: '' },
      { '0': 'zero key', items: [{ sku: 'a' }, { sku: 'b' }] },
    ];
    rows.forEach((data, row) => log.set(row, data));
    const paths = [
      ['plan'],
      ['score'],
      ['ratio'],
      ['big'],
      ['negative'],
      ['vip'],
      ['off'],
      ['none'],
      ['name'],
      ['nested'],
      ['nested', 'deeper', 'value'],
      ['nested', 'deeper', 'list', '0'],
      ['nested', 'deeper', 'list', '1'],
      ['nested', 'deeper', 'list', '2', 'three'],
      ['nested', 'deeper', 'list', '-1', '0'],
      ['nested', 'deeper', 'list', '9'],
      ['huge'],
      ['tiny'],
      ['zero'],
      ['max'],
      ['over'],
      ['list'],
      ['object'],
      ['text'],
      ['0'],
      ['items', '1', 'sku'],
      ['items', '-2', 'sku'],
      ['items', 'sku'],
      ['unknown'],
    ];
    for (const path of paths) {
      const read = log.pathReader(path);
      rows.forEach((data, row) => {
        expect({ path, row, value: read(row) }).toEqual({
          path,
          row,
          value: asRead(resolveDataPath(data, path)),
        });
      });
    }
  });

  it('leaves out what has no JSON form and reads non-finite numbers as null', () => {
    const log = new DataLog();
    log.set(0, {
      gone: undefined,
      fn: () => 1,
      infinite: Number.POSITIVE_INFINITY,
      nan: Number.NaN,
      kept: 1,
    });
    expect(log.pathReader(['gone'])(0)).toBeUndefined();
    expect(log.pathReader(['fn'])(0)).toBeUndefined();
    expect(log.pathReader(['infinite'])(0)).toBeNull();
    expect(log.pathReader(['nan'])(0)).toBeNull();
    expect(log.pathReader(['kept'])(0)).toBe(1);
  });

  it('reads the latest data of a row after rewrites, across compactions', () => {
    const log = new DataLog();
    const random = seededRandom(7);
    const latest: Array<Record<string, unknown>> = [];
    // Long values, rewritten often: the dead bytes pass the compaction threshold several times.
    for (let round = 0; round < 12; round += 1) {
      for (let row = 0; row < 500; row += 1) {
        const data =
          random() < 0.1
            ? {}
            : { round, row, note: 'n'.repeat(1000 + Math.floor(random() * 200)), flag: random() < 0.5 };
        latest[row] = data;
        log.set(row, data);
      }
    }
    for (const path of [['round'], ['row'], ['flag'], ['note']]) {
      const read = log.pathReader(path);
      latest.forEach((data, row) => expect(read(row)).toEqual(resolveDataPath(data, path)));
    }
    expect(log.pathReader(['row'])(10_000)).toBeUndefined();
  });
});
