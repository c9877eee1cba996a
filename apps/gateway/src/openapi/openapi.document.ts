import { MAX_ID } from '@cms/contracts';
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type {
  OperationObject,
  ResponseObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
// class-transformer keeps its metadata storage out of its public entry point; @Type() targets live there.
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { ValidationTypes } from 'class-validator';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import {
  defaultConverters,
  type ISchemaConverters,
} from 'class-validator-jsonschema/build/defaultConverters';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import type { SchemaObject as JsonSchema } from 'openapi3-ts';

const ERROR_BODY: SchemaObject = {
  type: 'object',
  required: ['errors'],
  properties: {
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['status', 'title', 'detail'],
        properties: {
          status: { type: 'string', example: '422' },
          title: { type: 'string', example: 'Validation Error' },
          detail: { type: 'string' },
          source: {
            type: 'object',
            properties: { pointer: { type: 'string', example: '/data/attributes/name' } },
          },
          id: {
            type: 'string',
            description: 'On 5xx answers: the id of the log line that describes the fault.',
          },
        },
      },
    },
  },
};

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': {
    description: 'Requests allowed a minute for the limit that applies.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': { description: 'Requests left this minute.', schema: { type: 'integer' } },
};

function errorResponse(description: string, headers: Record<string, unknown> = {}): ResponseObject {
  return {
    description,
    headers: headers as ResponseObject['headers'],
    content: { 'application/json': { schema: { $ref: '#/components/schemas/JsonApiErrors' } } },
  };
}

/** The rules every body meets (extensions §1), stated once for the document's description and answers. */
export const BODY_RULES = [
  'Bodies are JSON objects sent as `application/json` (any other Content-Type → 415; `null`, an array or a string where an object is expected → 422 at `/data`).',
  'A body is at most 1 MiB (→ 413) and valid UTF-8 (→ 400; never repaired); JSON that does not parse → 400.',
  'Objects and arrays nest at most 32 levels deep (→ 422).',
  'Every string, object keys and custom `data` included, is valid Unicode without U+0000 and without lone surrogates (→ 422 with a pointer to it).',
  'Identifiers are positive integers up to 2^53 − 1 (9007199254740991). In a path anything else is 404; in a body it is 422 with a pointer. One that names nothing in the workspace is 404 in a path and 422 in a body.',
  'A required name made only of whitespace → 422.',
  "A contact's `data` and an event's `data` are each at most 64 KiB as JSON (→ 422 with a pointer); `POST /api/v1/contacts/batch` holds at most 1,000 contacts.",
  '`occurred_at` may be at most 1 hour after the time the request is received (→ 422); earlier times are fine.',
  'Every answer of /api/v1 to a request with a valid key carries X-RateLimit-Limit and X-RateLimit-Remaining, errors included, and every such request counts.',
];

const PUBLIC_ERRORS: Record<string, ResponseObject> = {
  '400': errorResponse('The body is not valid UTF-8 or not valid JSON.', RATE_LIMIT_HEADERS),
  '401': errorResponse('No API key, or an invalid or deleted one.'),
  '403': errorResponse(
    'The key lacks the permission, or the plan does not include this API.',
    RATE_LIMIT_HEADERS,
  ),
  '404': errorResponse(
    'Not found, not in this workspace, or a path identifier that is not a positive integer up to 2^53 − 1.',
    RATE_LIMIT_HEADERS,
  ),
  '405': errorResponse('The path does not take this method.', RATE_LIMIT_HEADERS),
  '413': errorResponse('The body is larger than 1 MiB.', RATE_LIMIT_HEADERS),
  '415': errorResponse('The body is not application/json.', RATE_LIMIT_HEADERS),
  '422': errorResponse(
    'Invalid request; every failing field has its own error with a pointer (rules: see the description).',
    RATE_LIMIT_HEADERS,
  ),
  '429': errorResponse('Too many requests.', {
    ...RATE_LIMIT_HEADERS,
    'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
  }),
  '503': errorResponse('The owning service did not answer in time; retry with backoff.', {
    'Retry-After': { schema: { type: 'integer' } },
  }),
};

const ADMIN_ERRORS: Record<string, ResponseObject> = {
  '400': errorResponse('The body is not valid UTF-8 or not valid JSON.'),
  '401': errorResponse('Missing or wrong operator token.'),
  '404': errorResponse('Not found, or an identifier that is not a positive integer up to 2^53 − 1.'),
  '413': errorResponse('The body is larger than 1 MiB.'),
  '415': errorResponse('The body is not application/json.'),
  '422': errorResponse('Invalid request; every failing field has its own error with a pointer.'),
  '503': errorResponse('The request was not answered in time.', {
    'Retry-After': { schema: { type: 'integer' } },
  }),
};

const INBOUND_WEBHOOK_ERRORS: Record<string, ResponseObject> = {
  '400': errorResponse('The body is not valid UTF-8 or not valid JSON.', RATE_LIMIT_HEADERS),
  '401': errorResponse(
    'The URL names no integration, or X-Webhook-Signature is missing, malformed or wrong; nothing is recorded.',
  ),
  '413': errorResponse('The body is larger than 1 MiB.'),
  '415': errorResponse('The body is not application/json.'),
  '422': errorResponse(
    'The payload is not an object, breaks a rule every body meets (nesting, U+0000, lone surrogates), has no phone, email or ID, or a value fails the rules of POST /api/v1/events.',
    RATE_LIMIT_HEADERS,
  ),
  '429': errorResponse('More than 1,200 requests a minute for this integration.', {
    ...RATE_LIMIT_HEADERS,
    'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
  }),
  '503': errorResponse('The request was not answered in time; retry with the same Idempotency-Key or id.', {
    'Retry-After': { schema: { type: 'integer' } },
  }),
};

const PROVIDER_CALLBACK_ERRORS: Record<string, ResponseObject> = {
  '401': errorResponse(
    "The provider's signature is missing or does not match the channel's credentials; nothing is recorded.",
  ),
  '403': errorResponse('A subscription handshake whose verify token is not the channel’s.'),
  '404': errorResponse('The URL names no channel.'),
  '413': errorResponse('The body is larger than 1 MiB.'),
  '415': errorResponse('The body is neither application/json nor application/x-www-form-urlencoded.'),
  '503': errorResponse('The callback could not be checked or recorded now; the provider sends it again.', {
    'Retry-After': { schema: { type: 'integer' } },
  }),
};

const ID_SCHEMA: JsonSchema = { type: 'integer', minimum: 1, maximum: MAX_ID };

/** Schemas of the project's own rules (libs/contracts field rules), which the generator cannot read. */
const RULE_SCHEMAS: Record<string, (meta: ValidationMetadata) => JsonSchema> = {
  isId: () => ID_SCHEMA,
  areIds: () => ({ type: 'array', items: ID_SCHEMA }),
  isNotBlank: () => ({ type: 'string', pattern: '\\S', description: 'Not empty and not only white space.' }),
  isJsonOfAtMost: (meta) => ({
    description: `At most ${String(meta.constraints[0])} bytes as JSON (UTF-8).`,
  }),
  isNotLaterThanAnHourAfterReceipt: () => ({
    description: 'At most one hour after the time the request is received.',
  }),
};

const CUSTOM_RULES: ISchemaConverters = {
  [ValidationTypes.CUSTOM_VALIDATION]: (meta, options) => {
    const own = meta.name === undefined ? undefined : RULE_SCHEMAS[meta.name];
    if (own) return own(meta);
    const fallback = defaultConverters[ValidationTypes.CUSTOM_VALIDATION];
    return typeof fallback === 'function' ? fallback(meta, options) : fallback;
  },
};

/**
 * The OpenAPI document, generated from the running application: paths, parameters and bodies from the
 * controllers (Nest's explorer), body schemas from the class-validator rules that actually validate
 * them, and the error answers every public or operator path can give.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const base = new DocumentBuilder()
    .setTitle('Contact messaging and notification API')
    .setDescription(
      [
        'Every write is recorded in an append-only log and answered by the service that owns it.',
        '',
        '## Rules every body meets',
        '',
        ...BODY_RULES.map((rule) => `- ${rule}`),
      ].join('\n'),
    )
    .setVersion('1')
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      description: 'An API key, or the operator token on /admin/v1.',
    })
    .build();
  const document = SwaggerModule.createDocument(app, base);
  const schemas = validationMetadatasToSchemas({
    refPointerPrefix: '#/components/schemas/',
    additionalConverters: CUSTOM_RULES,
    classTransformerMetadataStorage: defaultMetadataStorage,
  });
  document.components = {
    ...document.components,
    schemas: {
      ...document.components?.schemas,
      ...(schemas as Record<string, SchemaObject>),
      JsonApiErrors: ERROR_BODY,
    },
  };
  for (const [path, item] of Object.entries(document.paths)) {
    const inbound = path.startsWith('/webhook/');
    const errors = path.startsWith('/api/v1')
      ? PUBLIC_ERRORS
      : path.startsWith('/admin/v1')
        ? ADMIN_ERRORS
        : path.startsWith('/webhook/provider/')
          ? PROVIDER_CALLBACK_ERRORS
          : inbound
            ? INBOUND_WEBHOOK_ERRORS
            : undefined;
    if (!errors) continue;
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item[method] as OperationObject | undefined;
      if (!operation) continue;
      // The inbound webhooks are authenticated by their signatures, not by a bearer key.
      operation.security = inbound ? [] : [{ bearer: [] }];
      // An error the operation describes itself keeps the body (and headers) every error has.
      const responses: Record<string, ResponseObject> = { ...errors };
      for (const [status, own] of Object.entries(operation.responses ?? {})) {
        const generic =
          errors[status] ??
          (Number(status) >= 400
            ? errorResponse('', errors === PUBLIC_ERRORS ? RATE_LIMIT_HEADERS : {})
            : undefined);
        responses[status] = { ...generic, ...(own as ResponseObject) };
      }
      operation.responses = responses;
    }
  }
  return document;
}

export function serveOpenApi(app: INestApplication): void {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    customSiteTitle: 'API reference',
  });
}
