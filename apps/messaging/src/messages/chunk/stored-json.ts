/**
 * What `value` reads back as once stored in a jsonb column: what JSON cannot write is gone (undefined
 * members, functions) or null (non-finite numbers, undefined array items), and the members of every
 * object are in jsonb's order (shorter keys first, then by their bytes). A chunk keeps its rows in this
 * form, so that a later record of the chunk reads a row as it would from the database. Plain values
 * are walked as they are; anything else (a Date, a class with toJSON) takes a round trip through JSON.
 */
export function storedJson<T>(value: T): T {
  if (value === null || value === undefined) return value;
  return stored(value) as T;
}

function stored(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value + 0 : null;
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) return value.map((item: unknown) => stored(item) ?? null);
      const object = value as Record<string, unknown>;
      if (Object.getPrototypeOf(object) !== Object.prototype || typeof object['toJSON'] === 'function') {
        const json = JSON.stringify(object);
        return json === undefined ? undefined : stored(JSON.parse(json) as unknown);
      }
      const keys = Object.keys(object);
      const result: Record<string, unknown> = {};
      for (const key of keys.length > 1 ? keys.sort(jsonbKeyOrder) : keys) {
        const member = stored(object[key]);
        if (member !== undefined) result[key] = member;
      }
      return result;
    }
    case 'bigint':
      // JSON.stringify throws, as writing the row would.
      return JSON.stringify(value);
    case 'undefined':
    case 'function':
    case 'symbol':
      // JSON leaves them out.
      return undefined;
  }
}

function jsonbKeyOrder(a: string, b: string): number {
  const left = Buffer.byteLength(a, 'utf8');
  const right = Buffer.byteLength(b, 'utf8');
  return left - right || Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
