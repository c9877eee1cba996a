import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type {
  OperationObject,
  ResponseObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
// class-transformer keeps its metadata storage out of its public entry point; @Type() targets live there.
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';

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

const PUBLIC_ERRORS: Record<string, ResponseObject> = {
  '401': errorResponse('No API key, or an invalid or deleted one.'),
  '403': errorResponse(
    'The key lacks the permission, or the plan does not include this API.',
    RATE_LIMIT_HEADERS,
  ),
  '404': errorResponse('Not found, or not in this workspace.', RATE_LIMIT_HEADERS),
  '422': errorResponse(
    'Invalid request; every failing field has its own error with a pointer.',
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
  '401': errorResponse('Missing or wrong operator token.'),
  '404': errorResponse('Not found.'),
  '422': errorResponse('Invalid request.'),
  '503': errorResponse('The request was not answered in time.', {
    'Retry-After': { schema: { type: 'integer' } },
  }),
};

const INBOUND_WEBHOOK_ERRORS: Record<string, ResponseObject> = {
  '400': errorResponse('The body is not valid JSON.', RATE_LIMIT_HEADERS),
  '401': errorResponse(
    'The URL names no integration, or X-Webhook-Signature is missing, malformed or wrong; nothing is recorded.',
  ),
  '413': errorResponse('The body is larger than 1 MiB.'),
  '415': errorResponse('The body is not application/json.'),
  '422': errorResponse(
    'The payload has no phone, email or ID, or a value fails the rules of POST /api/v1/events.',
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

/**
 * The OpenAPI document, generated from the running application: paths, parameters and bodies from the
 * controllers (Nest's explorer), body schemas from the class-validator rules that actually validate
 * them, and the error answers every public or operator path can give.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const base = new DocumentBuilder()
    .setTitle('Contact messaging and notification API')
    .setDescription('Every write is recorded in an append-only log and answered by the service that owns it.')
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
        : inbound
          ? INBOUND_WEBHOOK_ERRORS
          : undefined;
    if (!errors) continue;
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const operation = item[method] as OperationObject | undefined;
      if (!operation) continue;
      // The inbound webhook is authenticated by its signature, not by a bearer key.
      operation.security = inbound ? [] : [{ bearer: [] }];
      operation.responses = { ...errors, ...operation.responses };
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
