import { MAX_ID } from '@cms/contracts';
import { previewService, type ServiceDefinition } from '@cms/service-kit';
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
import pino from 'pino';

import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { API_TAGS } from './documented.decorator';
import { PUBLIC_SCHEMAS } from './public-schemas';
import { JSON_API_ERROR, JSON_API_ERRORS } from './schemas/shapes';
import { WEBHOOK_EVENTS, WEBHOOK_SIGNATURE_DESCRIPTION } from './webhook-events';

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': {
    description: 'Requests allowed a minute for the limit that applies.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': { description: 'Requests left this minute.', schema: { type: 'integer' } },
};

const REQUIRED_RATE_LIMIT_HEADERS = Object.fromEntries(
  Object.entries(RATE_LIMIT_HEADERS).map(([name, header]) => [name, { ...header, required: true }]),
);

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
  '503': errorResponse(
    'The owning service did not answer in time, or the gateway is starting; retry with backoff. The ' +
      'rate-limit headers are there when the key could be checked.',
    { 'Retry-After': { schema: { type: 'integer' } }, ...RATE_LIMIT_HEADERS },
  ),
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

/** Classes the body generator names after their code, under the name the document gives them. */
const PUBLIC_BODY_NAMES: Record<string, string> = {
  CreateApiKeyDto: 'CreateApiKeyBody',
  CreateWorkspaceDto: 'CreateWorkspaceBody',
  UpdateWorkspaceDto: 'UpdateWorkspaceBody',
  BatchContactElementV1: 'BatchContactElement',
};

/** The operational routes every service answers, described here (their controller lives in libs/http). */
const OPERATIONS: Record<string, { summary: string; answers: Record<string, ResponseObject> }> = {
  '/health': {
    summary: 'Liveness',
    answers: {
      '200': {
        description: 'The process answers.',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Health' } } },
      },
    },
  },
  '/ready': {
    summary: 'Readiness',
    answers: {
      '200': {
        description: 'Every dependency is reachable and every consumer assigned.',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Readiness' } } },
      },
      '503': {
        description: 'Not ready: the failing checks are named (or, while starting, what it waits for).',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Readiness' } } },
      },
    },
  },
  '/metrics': {
    summary: 'Prometheus metrics',
    answers: {
      '200': {
        description: 'Metrics in the Prometheus text format.',
        content: { 'text/plain': { schema: { type: 'string' } } },
      },
    },
  },
};

const OPERATIONAL_SCHEMAS: Record<string, SchemaObject> = {
  Health: {
    type: 'object',
    required: ['status', 'service'],
    properties: { status: { type: 'string', enum: ['ok'] }, service: { type: 'string' } },
  },
  Readiness: {
    type: 'object',
    required: ['status', 'service'],
    properties: {
      status: { type: 'string', enum: ['ready', 'not_ready', 'starting'] },
      service: { type: 'string' },
      checks: { type: 'object', additionalProperties: true },
      failing: { type: 'array', items: { type: 'string' } },
      waiting_for: { type: 'object', additionalProperties: true },
    },
  },
  PageMeta: {
    type: 'object',
    required: ['current_page', 'per_page', 'total', 'last_page'],
    additionalProperties: false,
    properties: {
      current_page: { type: 'integer', minimum: 1 },
      per_page: { type: 'integer', minimum: 1, maximum: 100 },
      total: { type: 'integer', minimum: 0 },
      last_page: { type: 'integer', minimum: 1 },
    },
  },
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const SCHEMA_PREFIX = '#/components/schemas/';

/** Every `$ref` under `value`, each once. */
function refsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') found.add(item);
      else refsIn(item, found);
    }
  }
  return found;
}

/**
 * Replaces in place what the body generator writes for a plain object or array field (a `$ref` to
 * `Object` or `Array`, which name nothing) by the type itself, and renames classes to their public
 * names.
 */
function mendSchemas(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(mendSchemas);
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  // OpenAPI 3.1 is JSON Schema: `nullable` (3.0) becomes a type that admits null.
  if (object['nullable'] === true) {
    const { nullable: _nullable, ...rest } = object;
    const type = rest['type'];
    return mendSchemas(
      typeof type === 'string'
        ? { ...rest, type: [type, 'null'] }
        : Array.isArray(type)
          ? { ...rest, type: [...(type as unknown[]), 'null'] }
          : { anyOf: [rest, { type: 'null' }] },
    );
  }
  const target = object['$ref'];
  if (typeof target === 'string' && target.startsWith(SCHEMA_PREFIX)) {
    const name = target.slice(SCHEMA_PREFIX.length);
    if (name === 'Object') return { type: 'object' };
    if (name === 'Array') return { type: 'array' };
    const renamed = PUBLIC_BODY_NAMES[name];
    if (renamed) return { ...object, $ref: `${SCHEMA_PREFIX}${renamed}` };
  }
  return Object.fromEntries(Object.entries(object).map(([key, item]) => [key, mendSchemas(item)]));
}

/** The components `roots` reach, through the components' own references. */
function reachable(schemas: Record<string, unknown>, roots: unknown[]): Record<string, unknown> {
  const kept = new Set<string>();
  const queue = roots.flatMap((root) => [...refsIn(root)]);
  while (queue.length > 0) {
    const target = queue.pop()!;
    if (!target.startsWith(SCHEMA_PREFIX)) continue;
    const name = target.slice(SCHEMA_PREFIX.length);
    if (kept.has(name) || !(name in schemas)) continue;
    kept.add(name);
    queue.push(...refsIn(schemas[name]));
  }
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => kept.has(name)));
}

/** The errors an operation can answer, by where it is and what it takes. */
function errorsOf(path: string, operation: OperationObject): Record<string, ResponseObject> | undefined {
  const takesBody = operation.requestBody !== undefined;
  const hasPathId = /\{[^}]+\}/.test(path);
  const pick = (errors: Record<string, ResponseObject>, statuses: string[]) =>
    Object.fromEntries(
      statuses.filter((status) => status in errors).map((status) => [status, errors[status]!]),
    );
  if (path.startsWith('/api/v1')) {
    return pick(PUBLIC_ERRORS, [
      ...(takesBody ? ['400'] : []),
      '401',
      '403',
      ...(hasPathId ? ['404'] : []),
      ...(takesBody ? ['413', '415'] : []),
      '422',
      '429',
      '503',
    ]);
  }
  if (path.startsWith('/admin/v1')) {
    return pick(ADMIN_ERRORS, [
      ...(takesBody ? ['400'] : []),
      '401',
      ...(hasPathId ? ['404'] : []),
      ...(takesBody ? ['413', '415', '422'] : []),
      '503',
    ]);
  }
  if (path.startsWith('/webhook/provider/')) return PROVIDER_CALLBACK_ERRORS;
  if (path.startsWith('/webhook/')) return INBOUND_WEBHOOK_ERRORS;
  return undefined;
}

/** Who may call an operation: an API key, the operator token, or anyone (signed URLs, links, probes). */
function securityOf(path: string): OperationObject['security'] {
  if (path.startsWith('/api/v1')) return [{ apiKey: [] }];
  if (path.startsWith('/admin/v1')) return [{ operatorToken: [] }];
  return [];
}

/**
 * The OpenAPI document (3.1), generated from the application: paths, parameters and bodies from the
 * controllers (Nest's explorer), body schemas from the class-validator rules that actually validate
 * them, each operation's answers from its @Documented() description, the public shapes it answers
 * with, the errors every operation of its kind can give, and under `webhooks` every outbound event.
 * Only what a customer sends or receives is a component.
 */
export function buildOpenApiDocument(app: INestApplication, publicBaseUrl: string): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Contact messaging and notification API')
    .setDescription(
      [
        'Every write is recorded in an append-only log and answered by the service that owns it.',
        '',
        '## Rules every body meets',
        '',
        ...BODY_RULES.map((rule) => `- ${rule}`),
        '',
        '## Outbound webhooks',
        '',
        WEBHOOK_SIGNATURE_DESCRIPTION,
      ].join('\n'),
    )
    .setVersion('1')
    .setLicense('Proprietary', `${publicBaseUrl}/docs`)
    .addServer(publicBaseUrl)
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        description: 'An API key of the workspace: `Authorization: Bearer cms_live_…`.',
      },
      'apiKey',
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'The operator token (`ADMIN_TOKEN` of the gateway).' },
      'operatorToken',
    );
  for (const [tag, description] of Object.entries(API_TAGS)) builder.addTag(tag, description);
  const document = SwaggerModule.createDocument(app, builder.build(), { autoTagControllers: false });
  const bodies = validationMetadatasToSchemas({
    refPointerPrefix: SCHEMA_PREFIX,
    additionalConverters: CUSTOM_RULES,
    classTransformerMetadataStorage: defaultMetadataStorage,
  });
  const generated = Object.fromEntries(
    Object.entries(bodies).map(([name, schema]) => [PUBLIC_BODY_NAMES[name] ?? name, schema]),
  );

  for (const [path, item] of Object.entries(document.paths)) {
    const operational = OPERATIONS[path];
    for (const method of METHODS) {
      const operation = item[method] as OperationObject | undefined;
      if (!operation) continue;
      operation.security = securityOf(path);
      if (operational) {
        operation.tags = ['Operations'];
        operation.summary = operational.summary;
        operation.responses = operational.answers;
        continue;
      }
      // Nest adds a success answer of its own (201 for POST, 200 otherwise) with no description: the
      // operation's @Documented() answers replace it.
      const own = Object.entries(operation.responses ?? {}).filter(
        ([, answer]) => (answer as ResponseObject).description !== '',
      );
      const errors = errorsOf(path, operation) ?? {};
      const responses: Record<string, ResponseObject> = { ...errors };
      const publicApi = path.startsWith('/api/v1');
      for (const [status, answer] of own) {
        const generic =
          errors[status] ??
          (Number(status) >= 400 ? errorResponse('', publicApi ? RATE_LIMIT_HEADERS : {}) : {});
        responses[status] = { ...generic, ...(answer as ResponseObject) };
      }
      if (publicApi) {
        // Every answer to a valid key carries them (extensions §1); a 401 had no key to count, and a 503
        // may come before the key could be checked (a gateway starting, its key store unreachable).
        for (const [status, answer] of Object.entries(responses)) {
          if (status === '401' || status === '503') continue;
          responses[status] = {
            ...answer,
            headers: { ...answer.headers, ...REQUIRED_RATE_LIMIT_HEADERS } as ResponseObject['headers'],
          };
        }
      }
      operation.responses = Object.fromEntries(
        Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)),
      );
    }
  }

  const mended = mendSchemas({
    paths: document.paths,
    webhooks: WEBHOOK_EVENTS,
    schemas: {
      ...generated,
      ...PUBLIC_SCHEMAS,
      ...OPERATIONAL_SCHEMAS,
      JsonApiErrors: JSON_API_ERRORS,
      JsonApiError: JSON_API_ERROR,
    },
  }) as { paths: OpenAPIObject['paths']; webhooks: unknown; schemas: Record<string, unknown> };
  return {
    ...document,
    openapi: '3.1.0',
    paths: mended.paths,
    webhooks: mended.webhooks,
    components: {
      ...document.components,
      schemas: reachable(mended.schemas, [mended.paths, mended.webhooks]),
    },
  } as OpenAPIObject;
}

/**
 * `GET /openapi.json` and `GET /openapi.yaml`: the document; `GET /docs`: the reference, rendered by
 * Scalar from the document (grouped by tag), with every asset from the gateway itself: Scalar's
 * self-contained browser bundle (`@scalar/api-reference`, a production dependency, so in the image's
 * node_modules) at a URL named after its content, cached for good; no CDN, web fonts, telemetry or AI
 * agent. Node's built-ins come through `process.getBuiltinModule`, keeping the serving in this function.
 */
export function serveOpenApi(app: INestApplication): void {
  const config = app.get<GatewayConfig>(GATEWAY_CONFIG);
  const document = buildOpenApiDocument(app, config.publicBaseUrl);
  // Nest's serializers for the two documents; its Swagger UI is not served.
  SwaggerModule.setup('docs', app, document, {
    ui: false,
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
  });

  const { createReadStream, readFileSync } = process.getBuiltinModule('node:fs');
  const { createHash } = process.getBuiltinModule('node:crypto');
  const { dirname, join } = process.getBuiltinModule('node:path');
  // The package exports no path to the bundle: it sits beside the entry point, in dist/browser/.
  const bundle = join(dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js');
  const bundleUrl = `docs/scalar-${createHash('sha256').update(readFileSync(bundle)).digest('hex').slice(0, 16)}.js`;
  const attribute = (value: string): string =>
    value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const scalarConfiguration = {
    withDefaultFonts: false, // the system's fonts, not fonts.scalar.com
    telemetry: false,
    agent: { disabled: true }, // the AI chat, served by Scalar
    mcp: { disabled: true },
    showDeveloperTools: 'never',
  };
  // Relative URLs: the page also works where a proxy serves the gateway under a path.
  const page = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${attribute(document.info.title)}: reference</title>`,
    '</head>',
    '<body>',
    `<script id="api-reference" data-url="openapi.json" data-configuration="${attribute(JSON.stringify(scalarConfiguration))}"></script>`,
    `<script src="${bundleUrl}"></script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
  const fastify = app.getHttpAdapter().getInstance() as import('fastify').FastifyInstance;
  fastify.get('/docs', (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page),
  );
  fastify.get('/docs/', (_request, reply) => reply.redirect('../docs', 301));
  fastify.get(`/${bundleUrl}`, (_request, reply) =>
    reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .type('text/javascript; charset=utf-8')
      .send(createReadStream(bundle)),
  );
}

/**
 * `main.js openapi`: the document on standard output, built from the gateway's routes without starting
 * anything (no database, broker or port): what CI lints and the SDK is generated from.
 */
export async function printOpenApiDocument(definition: ServiceDefinition<GatewayConfig>): Promise<void> {
  const env = process.env;
  const config = definition.loadConfig(
    {
      HTTP_PORT: '0',
      DATABASE_URL: 'postgres://document@127.0.0.1:5432/none',
      KAFKA_BROKERS: '127.0.0.1:9092',
      REDIS_URL: 'redis://127.0.0.1:6379',
      ADMIN_TOKEN: 'document-only-token-0123456789',
      SECRETS_KEY: Buffer.alloc(32).toString('base64'),
      ...(env['PUBLIC_BASE_URL'] ? { PUBLIC_BASE_URL: env['PUBLIC_BASE_URL'] } : {}),
    },
    {},
  );
  const app = await previewService(definition, config, pino({ level: 'silent' }));
  const document = buildOpenApiDocument(app, config.publicBaseUrl);
  process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
}
