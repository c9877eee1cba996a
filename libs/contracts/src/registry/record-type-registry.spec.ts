import { IsInt, IsString, Min } from 'class-validator';

import { createEnvelope } from '../envelope/create-envelope';
import { RecordDecodeError, RecordTypeRegistry, selectRecordTypes } from './record-type-registry';

class CounterAddedV1 {
  @IsString()
  counter!: string;
}

class CounterAddedV2 {
  @IsString()
  counter!: string;

  @IsInt()
  @Min(1)
  amount!: number;
}

function registry(): RecordTypeRegistry {
  return new RecordTypeRegistry().register(
    { type: 'counter.added', version: 1, schema: CounterAddedV1, upcast: (data) => ({ ...data, amount: 1 }) },
    { type: 'counter.added', version: 2, schema: CounterAddedV2 },
  );
}

function encode(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}

function reasonOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof RecordDecodeError) return error.reason;
    throw error;
  }
  return undefined;
}

describe('RecordTypeRegistry', () => {
  const base = { type: 'counter.added', source: 'test', workspaceid: '1' };

  it('upcasts an old version to the latest and validates it as the latest class', () => {
    const record = registry().decode<CounterAddedV2>(
      encode(createEnvelope({ ...base, dataversion: 1, data: { counter: 'a' } })),
    );
    expect(record.data).toBeInstanceOf(CounterAddedV2);
    expect(record.data).toEqual({ counter: 'a', amount: 1 });
    expect(record.dataversion).toBe(2);
    expect(record.writtenVersion).toBe(1);
  });

  it('rejects a value that is not JSON as malformed', () => {
    expect(reasonOf(() => registry().decode(Buffer.from('{nope')))).toBe('malformed');
  });

  it('rejects a null value as malformed', () => {
    expect(reasonOf(() => registry().decode(null))).toBe('malformed');
  });

  it('rejects an envelope without an id', () => {
    const { id: _id, ...withoutId } = createEnvelope({
      ...base,
      dataversion: 2,
      data: { counter: 'a', amount: 2 },
    });
    expect(reasonOf(() => registry().decode(encode(withoutId)))).toBe('invalid_envelope');
  });

  it('rejects a type nobody registered', () => {
    expect(
      reasonOf(() => registry().decode(encode(createEnvelope({ ...base, type: 'other.thing', data: {} })))),
    ).toBe('unknown_type');
  });

  it('rejects a version newer than any registered', () => {
    expect(
      reasonOf(() =>
        registry().decode(encode(createEnvelope({ ...base, dataversion: 3, data: { counter: 'a' } }))),
      ),
    ).toBe('unknown_version');
  });

  it('rejects data that breaks the rules of its class and names the field', () => {
    try {
      registry().decode(
        encode(createEnvelope({ ...base, dataversion: 2, data: { counter: 'a', amount: 0 } })),
      );
      throw new Error('decode accepted invalid data');
    } catch (error) {
      expect(error).toBeInstanceOf(RecordDecodeError);
      expect((error as RecordDecodeError).reason).toBe('invalid_data');
      expect((error as RecordDecodeError).details.join()).toMatch(/^amount: /);
    }
  });

  it('refuses to register the same type and version twice', () => {
    expect(() => registry().register({ type: 'counter.added', version: 2, schema: CounterAddedV2 })).toThrow(
      /registered twice/,
    );
  });

  it('finds a missing upcaster when asked to check completeness', () => {
    const incomplete = new RecordTypeRegistry().register(
      { type: 'x.y', version: 1, schema: CounterAddedV1 },
      { type: 'x.y', version: 2, schema: CounterAddedV2 },
    );
    expect(() => incomplete.assertComplete()).toThrow(/no upcaster/);
    expect(() => registry().assertComplete()).not.toThrow();
  });
});

describe('selectRecordTypes', () => {
  it('keeps the definitions of the types a view reads, and takes only those records', () => {
    class A {}
    const definitions = [
      { type: 'a.made', version: 1, schema: A },
      { type: 'b.made', version: 1, schema: A },
    ];
    const selection = selectRecordTypes(['a.made', 'c.made'], definitions);
    expect(selection.definitions.map((definition) => definition.type)).toEqual(['a.made']);
    expect(selection.takes({ type: 'a.made' })).toBe(true);
    expect(selection.takes({ type: 'b.made' })).toBe(false);
  });
});
