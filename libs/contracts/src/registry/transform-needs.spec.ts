import { Transform, Type } from 'class-transformer';
import { IsInt, IsObject, IsString, ValidateNested } from 'class-validator';

import { createEnvelope } from '../envelope/create-envelope';
import { RecordDecodeError, RecordTypeRegistry } from './record-type-registry';
import { TransformNeeds } from './transform-needs';

class Line {
  @IsInt()
  quantity!: number;
}

class Plain {
  @IsString()
  name!: string;

  @IsObject()
  data!: Record<string, unknown>;
}

class Nested {
  @IsString()
  name!: string;

  @ValidateNested({ each: true })
  @Type(() => Line)
  lines!: Line[];
}

class Trimmed {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  name!: string;
}

class NestedChild extends Nested {}

function decode(schema: new () => object, data: Record<string, unknown>): object {
  const registry = new RecordTypeRegistry().register({ type: 'thing.done', version: 1, schema });
  const envelope = createEnvelope({ type: 'thing.done', source: 'test', workspaceid: '1', data });
  return registry.decode(Buffer.from(JSON.stringify(envelope))).data as object;
}

describe('TransformNeeds', () => {
  const needs = new TransformNeeds();

  it('answers no for a class whose keys class-transformer would only copy', () => {
    expect(needs.needed(Plain, { name: 'a', data: { deep: { x: 1 } } })).toBe(false);
  });

  it('answers yes for a key with @Type or @Transform, on the class or an ancestor', () => {
    expect(needs.needed(Nested, { name: 'a', lines: [] })).toBe(true);
    expect(needs.needed(NestedChild, { name: 'a', lines: [] })).toBe(true);
    expect(needs.needed(Trimmed, { name: ' a ' })).toBe(true);
    // Without the key in the data there is nothing to make.
    expect(needs.needed(Nested, { name: 'a' })).toBe(false);
  });

  it('answers yes for data with a "__proto__" key, which Object.assign would take as the prototype', () => {
    expect(needs.needed(Plain, JSON.parse('{"name":"a","data":{},"__proto__":{"x":1}}'))).toBe(true);
  });
});

describe('RecordTypeRegistry decoding without class-transformer', () => {
  it('makes an instance of the class with the same values, nested ones included', () => {
    const data = { name: 'a', data: { deep: { list: [1, 'two', null] } } };
    const decoded = decode(Plain, data);
    expect(decoded).toBeInstanceOf(Plain);
    expect(decoded).toEqual(Object.assign(new Plain(), data));
  });

  it('still makes nested instances and applies transforms where the class asks for them', () => {
    const nested = decode(Nested, { name: 'a', lines: [{ quantity: 2 }] }) as Nested;
    expect(nested.lines[0]).toBeInstanceOf(Line);
    expect((decode(Trimmed, { name: '  b ' }) as Trimmed).name).toBe('b');
  });

  it('still validates what it copied', () => {
    expect(() => decode(Plain, { name: 7, data: {} })).toThrow(RecordDecodeError);
    expect(() => decode(Nested, { name: 'a', lines: [{ quantity: 'x' }] })).toThrow(RecordDecodeError);
  });
});
