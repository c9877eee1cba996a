/**
 * What `value` reads back as once stored in a jsonb column: its JSON parsed again (what JSON leaves
 * out is gone), with the members of every object in jsonb's order (shorter keys first, then by their
 * bytes). A chunk keeps its rows in this form, so that a later record of the chunk reads a row as it
 * would from the database.
 */
export function storedJson<T>(value: T): T {
  if (value === null || value === undefined) return value;
  return ordered(JSON.parse(JSON.stringify(value)) as unknown) as T;
}

function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (typeof value !== 'object' || value === null) return value;
  const object = value as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(object).sort(jsonbKeyOrder)) result[key] = ordered(object[key]);
  return result;
}

function jsonbKeyOrder(a: string, b: string): number {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length - right.length || Buffer.compare(left, right);
}
