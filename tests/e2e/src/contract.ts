import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { DocumentSchemas } from './document-schemas';

const ROOT = join(__dirname, '..', '..', '..');
/** Where each suite writes the operations its traffic went through (`npm test` sums them up). */
export const COVERAGE_DIR = join(ROOT, '.local', 'openapi-coverage');

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

interface MediaType {
  schema?: Record<string, unknown>;
}
interface ResponseDoc {
  headers?: Record<string, { required?: boolean }>;
  content?: Record<string, MediaType>;
}
interface OperationDoc {
  responses?: Record<string, ResponseDoc>;
}
interface Document {
  paths: Record<string, Partial<Record<Method, OperationDoc>>>;
  components?: Record<string, unknown>;
}

interface Route {
  template: string;
  pattern: RegExp;
  parameters: number;
}

export interface ObservedAnswer {
  status: number;
  headers: Headers;
  /** The body as parsed (JSON), the text when it is not JSON, undefined when empty. */
  body: unknown;
}

/**
 * The gateway's OpenAPI document as a judge of what the API really answers: every answer the
 * end-to-end suites receive through a documented operation must have a documented status, carry the
 * headers the document says it always carries, and have a body its schema accepts (no field missing,
 * none undocumented). Each operation an answer went through is written down, so `npm test` can tell
 * which documented operations no suite exercised.
 */
export class ApiContract {
  private readonly schemas: DocumentSchemas;
  private readonly routes: Route[];

  constructor(
    private readonly document: Document,
    private readonly suite: string,
  ) {
    this.schemas = new DocumentSchemas(document.components);
    this.routes = Object.keys(document.paths)
      .map((template) => ({
        template,
        parameters: (template.match(/\{[^}]+\}/g) ?? []).length,
        pattern: new RegExp(
          `^${template
            .split(/\{[^}]+\}/)
            .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
            .join('[^/]+')}$`,
        ),
      }))
      // A literal segment beats a parameter (`/tags/sync` before `/tags/{tag_id}`).
      .sort((a, b) => a.parameters - b.parameters);
  }

  /** The problems of one answer (none: it is as documented), and the operation it went through. */
  check(method: string, url: string, answer: ObservedAnswer): string[] {
    const path = url.split('?')[0]!;
    const verb = method.toLowerCase() as Method;
    const route = this.routes.find(
      (candidate) => candidate.pattern.test(path) && this.document.paths[candidate.template]![verb],
    );
    // A method the path does not take (405), or no path at all (404): no operation to hold it to.
    if (!route) return [];
    const operation = this.document.paths[route.template]![verb]!;
    const name = `${method.toUpperCase()} ${route.template}`;
    this.record(`${name} ${answer.status}`);
    const documented = operation.responses?.[String(answer.status)];
    if (!documented) {
      return [`${name} answered ${answer.status}, which the document does not list`];
    }
    const problems: string[] = [];
    for (const [header, spec] of Object.entries(documented.headers ?? {})) {
      if (spec.required && !answer.headers.has(header)) {
        problems.push(`${name} ${answer.status}: header ${header} missing`);
      }
    }
    const contentType = answer.headers.get('content-type')?.split(';')[0]?.trim();
    const media = documented.content;
    if (answer.body === undefined) {
      if (media && Object.values(media).some((entry) => entry.schema)) {
        problems.push(`${name} ${answer.status}: no body, the document describes one`);
      }
      return problems;
    }
    if (!media) {
      problems.push(`${name} ${answer.status}: a body, the document describes none`);
      return problems;
    }
    const schema = (contentType && media[contentType]?.schema) ?? undefined;
    if (!schema) {
      if (!contentType || !(contentType in media))
        problems.push(`${name} ${answer.status}: content type ${contentType ?? 'none'} not documented`);
      return problems;
    }
    problems.push(
      ...this.schemas.problems(
        `${name} ${answer.status}`,
        `${name} ${answer.status} ${contentType}`,
        schema,
        answer.body,
      ),
    );
    return problems;
  }

  private record(line: string): void {
    mkdirSync(COVERAGE_DIR, { recursive: true });
    appendFileSync(join(COVERAGE_DIR, `${this.suite}.txt`), `${line}\n`);
  }
}
