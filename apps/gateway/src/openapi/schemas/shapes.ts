import { MAX_ID } from '@cms/contracts';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** The building blocks every schema module of the document is written with. */

/** A component of the document by name. */
export function ref(name: string): SchemaObject {
  return { $ref: `#/components/schemas/${name}` } as SchemaObject;
}

/** A resource id (extensions §1: a positive integer of at most MAX_ID). */
export const ID: SchemaObject = { type: 'integer', minimum: 1, maximum: MAX_ID };
export const UUID: SchemaObject = { type: 'string', format: 'uuid' };
export const TIME: SchemaObject = { type: 'string', format: 'date-time' };
export const NULLABLE_TIME = { type: ['string', 'null'], format: 'date-time' } as unknown as SchemaObject;
export const COUNT: SchemaObject = { type: 'integer', minimum: 0 };
export const NULLABLE_TEXT = { type: ['string', 'null'] } as unknown as SchemaObject;
/** Customer data: any JSON object, as sent. */
export const FREE_FORM: SchemaObject = { type: 'object', additionalProperties: true };

/** An object whose every listed property is always there, and nothing else. */
export function fixed(properties: Record<string, SchemaObject>, description?: string): SchemaObject {
  return {
    type: 'object',
    ...(description !== undefined ? { description } : {}),
    required: Object.keys(properties),
    additionalProperties: false,
    properties,
  };
}

/** `type: [<type>, 'null']`: OpenAPI 3.1 spells a nullable value as a type that admits null. */
export function orNull(schema: SchemaObject, description?: string): SchemaObject {
  const type = schema.type as string;
  return {
    ...schema,
    type: [type, 'null'],
    ...(description !== undefined ? { description } : {}),
  } as unknown as SchemaObject;
}

/** A `$ref` or null (a `$ref` cannot take a type beside it). */
export function refOrNull(name: string, description?: string): SchemaObject {
  return {
    ...(description !== undefined ? { description } : {}),
    anyOf: [ref(name), { type: 'null' }],
  } as SchemaObject;
}

export function described(schema: SchemaObject, description: string): SchemaObject {
  return { ...schema, description };
}

/** One element of a JSON:API error body (libs/http JsonApiErrorObject), every field it may have. */
export const JSON_API_ERROR: SchemaObject = {
  type: 'object',
  required: ['status', 'title', 'detail'],
  additionalProperties: false,
  properties: {
    status: { type: 'string', example: '422' },
    title: { type: 'string', example: 'Validation Error' },
    detail: { type: 'string' },
    source: {
      type: 'object',
      required: ['pointer'],
      additionalProperties: false,
      properties: {
        pointer: { type: 'string', example: '/data/attributes/name' },
        parameter: { type: 'string', description: 'For a query parameter: its name.' },
      },
    },
    id: { type: 'string', description: 'On 5xx answers: the id of the log line that describes the fault.' },
  },
};

/** A JSON:API error body: `{"errors": [...]}`. */
export const JSON_API_ERRORS: SchemaObject = fixed({
  errors: { type: 'array', minItems: 1, items: ref('JsonApiError') },
});
