import { ApiError } from '../../api';

/**
 * Parses the JSON typed into the editor of `field` (a dotted path such as `steps`); text that is not
 * JSON, or not of the expected kind, is refused as a problem at that field's pointer, so the message
 * shows on the editor itself. Empty text is `undefined`.
 */
export function jsonAt(text: string, field: string, expect?: 'array' | 'object'): unknown {
  const refuse = (detail: string): never => {
    throw new ApiError(422, [
      {
        status: '422',
        title: 'Invalid JSON',
        detail,
        source: { pointer: `/data/attributes/${field.split('.').join('/')}` },
      },
    ]);
  };
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    return refuse(`Not valid JSON (${error instanceof Error ? error.message : String(error)}).`);
  }
  if (expect === 'array' && !Array.isArray(value)) refuse('Must be a JSON array.');
  if (expect === 'object' && (typeof value !== 'object' || value === null || Array.isArray(value)))
    refuse('Must be a JSON object.');
  return value;
}

/** A value as the text of a JSON editor (empty for nothing). */
export function jsonText(value: unknown): string {
  return value === undefined || value === null ? '' : JSON.stringify(value, null, 2);
}
