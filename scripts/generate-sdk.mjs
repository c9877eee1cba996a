// Writes libs/sdk/src/schema.ts, the TypeScript types of the gateway's OpenAPI document (openapi-typescript),
// from the document the built gateway prints (`node dist/apps/gateway/src/main.js openapi`; build first with
// `node scripts/build.mjs --no-typecheck`). With --check it writes nothing and fails when the checked-in file
// differs from what the document makes, so CI catches an SDK that drifted from the API.
//   node scripts/generate-sdk.mjs [--check] [--document <openapi.json>]
// --document reads a document already written (scripts/openapi-check.sh passes the one it linted).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import openapiTS, { astToString } from 'openapi-typescript';
import * as prettier from 'prettier';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, 'libs', 'sdk', 'src', 'schema.ts');
const gateway = join(root, 'dist', 'apps', 'gateway', 'src', 'main.js');
const generatorVersion = JSON.parse(
  readFileSync(join(root, 'node_modules', 'openapi-typescript', 'package.json'), 'utf8'),
).version;

const args = process.argv.slice(2);
const check = args.includes('--check');
const documentAt = args.indexOf('--document');
const documentFile = documentAt >= 0 ? args[documentAt + 1] : undefined;
if (documentAt >= 0 && !documentFile) fail('--document needs a file');

function fail(message) {
  console.error(`[generate-sdk] ${message}`);
  process.exit(1);
}

function readDocument() {
  if (documentFile) return readFileSync(documentFile, 'utf8');
  if (!existsSync(gateway))
    fail(`${relative(root, gateway)} is missing: run \`node scripts/build.mjs --no-typecheck\``);
  // The default PUBLIC_BASE_URL, whatever this shell has: the types do not depend on where it runs.
  const { PUBLIC_BASE_URL: _ignored, ...env } = process.env;
  const printed = spawnSync(process.execPath, [gateway, 'openapi'], {
    cwd: root,
    env,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (printed.status !== 0)
    fail(`\`main.js openapi\` failed (${printed.status ?? printed.signal}):\n${printed.stderr}`);
  return printed.stdout;
}

let document;
try {
  document = JSON.parse(readDocument());
} catch (error) {
  fail(`the document is not JSON: ${error.message}`);
}

const header = [
  "// GENERATED FILE, do not edit: the types of the gateway's OpenAPI document, written by",
  `// scripts/generate-sdk.mjs with openapi-typescript ${generatorVersion}. Regenerate after changing the API:`,
  '//   node scripts/build.mjs --no-typecheck && node scripts/generate-sdk.mjs',
  '// (`npm test` runs it with --check, which fails while this file differs from the document.)',
  '',
].join('\n');
// JSON Schema's `{ "type": "object" }` takes any properties (a contact's `data`); without the option
// openapi-typescript would type it as an object that can hold none.
const ast = await openapiTS(document, { emptyObjectsUnknown: true });
const text = await prettier.format(`${header}\n${astToString(ast)}`, {
  ...(await prettier.resolveConfig(target)),
  filepath: target,
});

if (!check) {
  writeFileSync(target, text);
  console.log(`[generate-sdk] wrote ${relative(root, target)}`);
  process.exit(0);
}

const current = existsSync(target) ? readFileSync(target, 'utf8') : '';
if (current === text) {
  console.log(`[generate-sdk] ${relative(root, target)} matches the document`);
  process.exit(0);
}
console.error(
  `[generate-sdk] ${relative(root, target)} differs from what the document makes; regenerate it: ` +
    'node scripts/build.mjs --no-typecheck && node scripts/generate-sdk.mjs',
);
// The start of the difference, as `diff -u` shows it.
const made = join(mkdtempSync(join(tmpdir(), 'sdk-schema-')), 'schema.ts');
writeFileSync(made, text);
const diff = spawnSync(
  'diff',
  ['-u', '--label', 'checked in', '--label', 'from the document', target, made],
  {
    encoding: 'utf8',
  },
);
console.error((diff.stdout ?? '').split('\n').slice(0, 40).join('\n'));
rmSync(dirname(made), { recursive: true, force: true });
process.exit(1);
