import { getMetadataStorage, IsInt, IsString, MinLength, validateSync } from 'class-validator';

import { memoizeValidationMetadata } from './validation-metadata-cache';

class Named {
  @IsString()
  name!: string;
}

class Counted extends Named {
  @IsInt()
  count!: number;

  @MinLength(3, { groups: ['strict'] })
  code!: string;
}

function messages(value: object, groups?: string[]): string[] {
  return validateSync(value, groups ? { groups } : {})
    .flatMap((error) => Object.values(error.constraints ?? {}))
    .sort();
}

function counted(fields: Partial<Counted>): Counted {
  return Object.assign(new Counted(), fields);
}

describe('memoizeValidationMetadata', () => {
  const storage = getMetadataStorage();
  const scans: unknown[] = [];
  const scan = storage.getTargetValidationMetadatas.bind(storage);
  const bad = counted({ name: 7 as unknown as string, count: 1.5, code: 'x' });
  const before = { plain: messages(bad), strict: messages(bad, ['strict']) };

  beforeAll(() => {
    storage.getTargetValidationMetadatas = (...args) => {
      scans.push(args[0]);
      return scan(...args);
    };
    memoizeValidationMetadata(storage);
    memoizeValidationMetadata(storage);
  });

  it('finds the same rules, inherited and grouped ones included, as the scan it replaces', () => {
    expect(messages(bad)).toEqual(before.plain);
    expect(messages(bad, ['strict'])).toEqual(before.strict);
    // Without groups every rule applies; with a group only that group's (class-validator's semantics).
    expect(before.plain).toEqual([
      'code must be longer than or equal to 3 characters',
      'count must be an integer number',
      'name must be a string',
    ]);
    expect(before.strict).toEqual(['code must be longer than or equal to 3 characters']);
    expect(messages(counted({ name: 'n', count: 2, code: 'abc' }))).toEqual([]);
  });

  it('scans once per class and set of options, however often it validates', () => {
    scans.length = 0;
    for (let i = 0; i < 5; i += 1) {
      messages(counted({ name: 'n', count: i, code: 'abcd' }));
      messages(counted({ name: 'n', count: i, code: 'abcd' }), ['strict']);
    }
    expect(scans.filter((target) => target === Counted)).toHaveLength(0);
    messages(Object.assign(new Named(), { name: 'n' }));
    messages(Object.assign(new Named(), { name: 'n' }));
    expect(scans.filter((target) => target === Named)).toHaveLength(1);
  });
});
