import { v5 as uuidv5 } from 'uuid';

/** The namespace of every id this system derives (a fixed, random v4). */
const NAMESPACE = '6f1d3c2e-8a4b-4f7e-9c1d-2b5a7e9f0c13';

/**
 * An id that is the same every time the same inputs are decided, live or on replay:
 * `deterministicId(record.id, 'contact.created')`.
 */
export function deterministicId(...parts: Array<string | number>): string {
  return uuidv5(parts.join('\u001f'), NAMESPACE);
}
