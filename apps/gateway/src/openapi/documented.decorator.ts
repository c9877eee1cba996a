import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** The resources of the document, one tag each, in the order a reader meets them. */
export const API_TAGS = {
  Events: 'Business events recorded against contacts (every plan may send them).',
  Contacts: 'Contacts, their identifiers, marketing consent and channel links.',
  Tags: 'Tags and their assignment to contacts.',
  Integrations: 'Inbound webhook integrations: a signed URL any tool can post payloads to.',
  'Inbound webhook': 'The URL an integration hands out; authenticated by its signature, not a key.',
  Channels: 'Sending channels (WhatsApp, SMS, email, RCS, Telegram, Messenger, Instagram, web push).',
  Templates: 'Message templates (Liquid) and their render preview.',
  Messages: 'Messages sent and received, with their delivery history.',
  Suppressions: 'Addresses that are never sent marketing on a channel type.',
  'Alert rules': 'Delivery monitoring rules.',
  Alerts: 'Alerts raised by the rules.',
  Audiences: 'Saved audiences (filters over contacts or an imported file) and the live preview.',
  Imports: 'CSV uploads processed into import audiences.',
  Workflows: 'Automations that recorded events start for a contact: steps, waits, branches and a goal.',
  Outcomes: 'Goals reached by workflow runs, with the message credited for each.',
  Bots: 'Flows and models that answer contacts on the channel they wrote from, and their conversations.',
  Notifications:
    'Broadcasts: a saved template sent to a saved audience when asked, on a schedule or as a test, and their sends.',
  'Webhook endpoints': 'Outbound webhook endpoints, their signed deliveries, retries and switch-off.',
  Links: 'Tracked links handed out in messages.',
  'Provider callbacks':
    "Status callbacks and inbound messages from providers, checked by each provider's signature.",
  Workspaces: 'Operator API: workspaces and their plans.',
  'API keys': 'The keys of a workspace: issued and deleted by the operator API; a key can read itself.',
  Operations: 'Health, readiness and metrics of the process.',
} as const;
export type ApiTag = keyof typeof API_TAGS;

/** A component of the document by name. */
export function ref(name: string): SchemaObject {
  return { $ref: `#/components/schemas/${name}` } as SchemaObject;
}

/** `{"data": <name>}`: one resource. */
export function one(name: string): SchemaObject {
  return {
    type: 'object',
    required: ['data'],
    additionalProperties: false,
    properties: { data: ref(name) },
  };
}

/** `{"data": [<name>], "meta": {...}}`: a page of a list (extensions §1). */
export function page(name: string): SchemaObject {
  return {
    type: 'object',
    required: ['data', 'meta'],
    additionalProperties: false,
    properties: { data: { type: 'array', items: ref(name) }, meta: ref('PageMeta') },
  };
}

/** A success answer: what it means, and its body (none for 204 and redirects). */
export interface SuccessAnswer {
  description: string;
  schema?: SchemaObject;
  /** The body's media type when it is not JSON (`text/plain`, …). */
  contentType?: string;
  /** Bodies of several media types for one status: the schema under each. */
  content?: Record<string, SchemaObject>;
  /** Response headers; `required` when the answer always carries it. */
  headers?: Record<string, { description: string; schema: SchemaObject; required?: boolean }>;
}

export interface OperationDoc {
  tag: ApiTag;
  summary: string;
  description?: string;
  /** Every success (and redirect) status the operation answers, with its body. */
  answers: Record<number, SuccessAnswer>;
  /** A list: `page`, `per_page` and these `filter[<field>]` query parameters. */
  list?: { filters: Record<string, string> };
  /** Other query parameters. */
  query?: Record<string, { description: string; schema: SchemaObject; required?: boolean }>;
  /** Request headers the operation reads. */
  headers?: Record<string, { description: string; required?: boolean }>;
  deprecated?: boolean;
}

const PAGE_PARAMETERS = {
  page: { description: 'The page, from 1.', schema: { type: 'integer', minimum: 1, default: 1 } },
  per_page: {
    description: 'Items per page (at most 100; more → 422).',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
  },
} satisfies OperationDoc['query'];

/**
 * What the document says of an operation: its tag, summary, every success status with its exact body,
 * and the query parameters and headers it reads (the controllers read them from the raw request, which
 * Nest's explorer cannot see). The errors every operation of its kind can answer are added by the
 * document itself (openapi.document.ts).
 */
export function Documented(doc: OperationDoc): MethodDecorator {
  const query = {
    ...(doc.list ? PAGE_PARAMETERS : {}),
    ...Object.fromEntries(
      Object.entries(doc.list?.filters ?? {}).map(([field, description]) => [
        `filter[${field}]`,
        { description, schema: { type: 'string' } as SchemaObject },
      ]),
    ),
    ...doc.query,
  };
  return applyDecorators(
    ApiTags(doc.tag),
    ApiOperation({
      summary: doc.summary,
      ...(doc.description !== undefined ? { description: doc.description } : {}),
      ...(doc.deprecated ? { deprecated: true } : {}),
    }),
    ...Object.entries(query).map(([name, parameter]) =>
      ApiQuery({
        name,
        description: parameter.description,
        schema: parameter.schema,
        required: 'required' in parameter && parameter.required === true,
      }),
    ),
    ...Object.entries(doc.headers ?? {}).map(([name, header]) =>
      ApiHeader({ name, description: header.description, required: header.required === true }),
    ),
    ...Object.entries(doc.answers).map(([status, answer]) =>
      ApiResponse({
        status: Number(status),
        description: answer.description,
        ...(answer.headers ? { headers: answer.headers } : {}),
        ...(answer.content
          ? {
              content: Object.fromEntries(
                Object.entries(answer.content).map(([type, schema]) => [type, { schema }]),
              ),
            }
          : answer.schema
            ? answer.contentType
              ? { content: { [answer.contentType]: { schema: answer.schema } } }
              : { schema: answer.schema }
            : {}),
      }),
    ),
  );
}
