import path from 'node:path';

import ts from 'typescript';

import { describeObject, type KubeObject } from './kustomize';

/*
 * Both checks read the Kubernetes OpenAPI definitions as kubernetes-models publishes them, one module
 * per API group and version (`kubernetes-models/apps/v1`, `kubernetes-models/v1`, …):
 * - its validators (JSON Schema compiled with ajv) check types, formats, enums and required fields;
 * - its TypeScript declarations, through the compiler's excess-property check, reject fields the
 *   schema does not define, which the JSON Schema allows (a misspelt `readinesProbe` would pass it).
 */

interface ModelClass {
  new (data: unknown): { validate(): void };
}

/** The kubernetes-models module of an API version: `apps/v1` → `kubernetes-models/apps/v1`, `v1` → `kubernetes-models/v1`. */
function modelModule(apiVersion: string): string {
  if (!/^([a-z0-9.-]+\/)?v[0-9]+((alpha|beta)[0-9]+)?$/.test(apiVersion)) {
    throw new Error(`"${apiVersion}" is not a Kubernetes API version`);
  }
  return `kubernetes-models/${apiVersion}`;
}

/**
 * The schema violations of one object against the definition of its own apiVersion and kind, or
 * undefined when it conforms. An apiVersion/kind without a definition is a violation too.
 */
export async function schemaViolations(object: KubeObject): Promise<string | undefined> {
  let models: Record<string, unknown>;
  try {
    // kubernetes-models ships ES modules only: loaded with import(), which the test transform keeps.
    models = (await import(modelModule(object.apiVersion))) as Record<string, unknown>;
  } catch (error) {
    return `${describeObject(object)}: no schema for ${object.apiVersion}: ${(error as Error).message}`;
  }
  const Model = models[object.kind] as ModelClass | undefined;
  if (typeof Model !== 'function')
    return `${describeObject(object)}: no schema for ${object.apiVersion} ${object.kind}`;
  try {
    new Model(object).validate();
    return undefined;
  } catch (error) {
    return `${describeObject(object)}: ${(error as Error).message}`;
  }
}

/** An object and where it was rendered from, for the messages. */
export interface RenderedObject {
  source: string;
  object: KubeObject;
}

/**
 * The fields that an object's apiVersion/kind does not define (and any type mismatch the declarations
 * see), one message per finding naming the source and object. Runs the TypeScript compiler once over
 * an in-memory module that assigns each object to its kind's declared type.
 */
export function unknownFields(rendered: RenderedObject[]): string[] {
  // Beside the repository's node_modules, so the compiler resolves kubernetes-models from there; never written.
  const fileName = path.resolve(__dirname, '..', '__rendered-manifests__.ts');
  const spans: { start: number; end: number; label: string }[] = [];
  let source = '';
  rendered.forEach(({ object }, index) => {
    source += `import type { I${object.kind} as T${index} } from '${modelModule(object.apiVersion)}/${object.kind}';\n`;
  });
  rendered.forEach(({ source: from, object }, index) => {
    const start = source.length;
    source += `export const object${index}: T${index} = ${JSON.stringify(object, null, 2)};\n`;
    spans.push({ start, end: source.length, label: `${from}: ${describeObject(object)}` });
  });

  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
  };
  const host = ts.createCompilerHost(options);
  const readSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.getSourceFile = (name, languageVersion, ...rest) =>
    name === fileName
      ? ts.createSourceFile(name, source, languageVersion)
      : readSourceFile(name, languageVersion, ...rest);
  host.fileExists = (name) => name === fileName || fileExists(name);

  const program = ts.createProgram([fileName], options, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
    const span = spans.find(
      ({ start, end }) =>
        diagnostic.start !== undefined && diagnostic.start >= start && diagnostic.start < end,
    );
    return span ? `${span.label}: ${message}` : message;
  });
}
