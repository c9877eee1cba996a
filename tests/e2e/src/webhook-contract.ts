import { createHmac, timingSafeEqual } from 'node:crypto';

import { DocumentSchemas } from './document-schemas';

interface HeaderParameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Record<string, unknown>;
}

interface WebhookOperation {
  parameters?: HeaderParameter[];
  requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> };
}

/** What of the gateway's OpenAPI document describes the outbound webhooks. */
export interface WebhooksDocument {
  webhooks?: Record<string, { post?: WebhookOperation }>;
  components?: Record<string, unknown>;
}

/** The request headers of a delivery as a receiver got them: node's (lower-case names) or fetch's. */
export type DeliveryHeaders = Headers | Record<string, string | string[] | undefined>;

function headerOf(headers: DeliveryHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Checks Service-Signature as the document's description says a receiver does (the specification's
 * four steps): `t` and every `v1` parsed, the hex HMAC-SHA256 of `<t>.<raw body>` made with each of
 * `secrets`, compared in constant time with any `v1` (a second one follows a roll-secret), and `t` no
 * older than `toleranceSeconds`.
 */
export function verifyWebhookSignature(
  header: string | undefined,
  rawBody: string,
  secrets: readonly string[],
  nowMs = Date.now(),
  toleranceSeconds = 300,
): boolean {
  const parts = (header ?? '').split(',').map((part) => {
    const at = part.indexOf('=');
    return at < 0 ? ['', ''] : [part.slice(0, at), part.slice(at + 1)];
  });
  const timestamps = parts.filter(([name]) => name === 't').map(([, value]) => value!);
  const signatures = parts.filter(([name]) => name === 'v1').map(([, value]) => Buffer.from(value!, 'hex'));
  if (timestamps.length !== 1 || !/^\d+$/.test(timestamps[0]!)) return false;
  const t = timestamps[0]!;
  if (nowMs / 1000 - Number(t) > toleranceSeconds) return false;
  return secrets.some((secret) => {
    const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`, 'utf8').digest();
    return signatures.some((given) => given.length === expected.length && timingSafeEqual(given, expected));
  });
}

/**
 * The `webhooks` of the gateway's OpenAPI document as a judge of what the platform really sends: a
 * delivery's kind (Service-Event) must be documented, every header it documents as required must be
 * there and match its schema, the body must be valid against the kind's envelope (its `data`
 * included: no field missing, none undocumented), and Service-Delivery must equal the envelope id.
 */
export class WebhookContract {
  private readonly schemas: DocumentSchemas;

  constructor(private readonly document: WebhooksDocument) {
    this.schemas = new DocumentSchemas(document.components);
  }

  /** The contract of the gateway at `gatewayUrl` (its /openapi.json). */
  static async read(gatewayUrl: string): Promise<WebhookContract> {
    const response = await fetch(`${gatewayUrl}/openapi.json`);
    if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
    return new WebhookContract((await response.json()) as WebhooksDocument);
  }

  /** The event kinds the document describes. */
  kinds(): string[] {
    return Object.keys(this.document.webhooks ?? {});
  }

  /** The problems of one received delivery (none: it is as documented). */
  check(headers: DeliveryHeaders, rawBody: string): string[] {
    const kind = headerOf(headers, 'service-event');
    const name = `webhook ${kind ?? '(no Service-Event)'}`;
    const operation = kind === undefined ? undefined : this.document.webhooks?.[kind]?.post;
    if (!operation) return [`${name}: the document describes no such webhook`];
    const problems: string[] = [];
    for (const parameter of operation.parameters ?? []) {
      if (parameter.in !== 'header') continue;
      const value = headerOf(headers, parameter.name);
      if (value === undefined) {
        if (parameter.required) problems.push(`${name}: header ${parameter.name} missing`);
        continue;
      }
      if (parameter.schema) {
        problems.push(
          ...this.schemas
            .problems(name, `${kind} header ${parameter.name}`, parameter.schema, value, 1)
            .map((problem) => problem.replace('(body)', `header ${parameter.name} ${JSON.stringify(value)}`)),
        );
      }
    }
    const contentType = headerOf(headers, 'content-type')?.split(';')[0]?.trim();
    const schema = contentType ? operation.requestBody?.content?.[contentType]?.schema : undefined;
    if (!schema) {
      problems.push(`${name}: content type ${contentType ?? 'none'} not documented`);
      return problems;
    }
    let body: unknown;
    try {
      body = JSON.parse(rawBody);
    } catch {
      problems.push(`${name}: the body is not JSON`);
      return problems;
    }
    problems.push(...this.schemas.problems(name, `${kind} body ${contentType}`, schema, body));
    const delivery = headerOf(headers, 'service-delivery');
    const id = (body as { id?: unknown } | null)?.id;
    if (delivery !== undefined && delivery !== id) {
      problems.push(`${name}: Service-Delivery ${delivery} is not the envelope id ${String(id)}`);
    }
    return problems;
  }
}
