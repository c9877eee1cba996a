/**
 * The lines a new service adds to files that list every service. Each edit finds its place by the
 * shape of the file and refuses when that shape has changed, naming what to add by hand; prettier
 * formats the result.
 */

export class ShapeError extends Error {
  constructor(file: string, what: string) {
    super(`${file} no longer has the shape scripts/new-service/edits.ts expects: add ${what} by hand`);
  }
}

function insertAt(text: string, at: number, addition: string): string {
  return text.slice(0, at) + addition + text.slice(at);
}

/** libs/config/src/services.ts: the service's entry, last in SERVICE_CATALOG. */
export function addCatalogEntry(
  text: string,
  service: { name: string; httpPort: number; schema: string },
): string {
  const start = text.indexOf('export const SERVICE_CATALOG = catalog([');
  const end = start === -1 ? -1 : text.indexOf('\n]);', start);
  if (end === -1) throw new ShapeError('libs/config/src/services.ts', `the entry of ${service.name}`);
  return insertAt(
    text,
    end,
    `
  {
    name: '${service.name}',
    httpPort: ${service.httpPort},
    schema: '${service.schema}',
    role: 'consumer',
    consumers: [{ name: '${service.name}', topics: ['requests'] }],
    secrets: [],
  },`,
  );
}

/** libs/contracts/src/topics.ts: the service's facts topic, before the dead letters' (last in TOPICS). */
export function addTopic(text: string, key: string, topic: string): string {
  const deadLetters = /\n((?: {2}\/\*\*[^\n]*\*\/\n)? {2}deadLetters: )/.exec(text);
  if (!deadLetters) throw new ShapeError('libs/contracts/src/topics.ts', `${key}: '${topic}' to TOPICS`);
  return insertAt(text, deadLetters.index + 1, `  ${key}: '${topic}',\n`);
}

/**
 * libs/contracts/src/requests/request-payloads.ts: the service's request payloads in RequestPayloads
 * and its request classes in REQUEST_SCHEMAS, imported from its records module.
 */
export function addRequestPayloads(
  text: string,
  module: { path: string; schemas: string; payloads: string },
): string {
  const file = 'libs/contracts/src/requests/request-payloads.ts';
  const imports = [...text.matchAll(/^import [^;]*;\n/gm)].at(-1);
  const payloads = /export interface RequestPayloads\s+extends\s+[^{]*?(?=\s*\{\})/.exec(text);
  const schemas = /export const REQUEST_SCHEMAS\b[^=]*=\s*\{\n[\s\S]*?(?=\n\};)/.exec(text);
  if (!imports || !payloads || !schemas || payloads.index < imports.index || schemas.index < payloads.index) {
    throw new ShapeError(
      file,
      `${module.payloads} to RequestPayloads and ${module.schemas} to REQUEST_SCHEMAS`,
    );
  }
  // From the end backwards, so that each place found stays where it was.
  let edited = insertAt(text, schemas.index + schemas[0].length, `\n  ...${module.schemas},`);
  edited = insertAt(edited, payloads.index + payloads[0].length, `, ${module.payloads}`);
  return insertAt(
    edited,
    imports.index + imports[0].length,
    `import { ${module.schemas}, type ${module.payloads} } from '${module.path}';\n`,
  );
}

/** libs/contracts/src/index.ts: the service's records module, exported last. */
export function addContractsExport(text: string, path: string): string {
  return `${text.trimEnd()}\nexport * from '${path}';\n`;
}

/** tests/e2e/test/migrate-command.int-spec.ts: the tables the service's migrations create. */
export function addOwnTables(text: string, service: string, tables: readonly string[]): string {
  const start = text.indexOf('const OWN_TABLES: Record<ServiceName, string[]> = {');
  const end = start === -1 ? -1 : text.indexOf('\n};', start);
  if (end === -1) {
    throw new ShapeError(
      'tests/e2e/test/migrate-command.int-spec.ts',
      `the tables of ${service} to OWN_TABLES`,
    );
  }
  return insertAt(text, end, `\n  '${service}': [${tables.map((table) => `'${table}'`).join(', ')}],`);
}
