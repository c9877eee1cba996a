// Which operations of the OpenAPI document the end-to-end suites sent traffic through (each suite's
// tests/e2e/src/contract.ts writes .local/openapi-coverage/<suite>.txt, one `METHOD /template status`
// a line), against every operation the document describes. Fails, naming them, when an operation was
// never exercised: every documented operation is checked against what the real system answers.
//   node scripts/openapi-coverage.mjs <document.json> <coverage dir>
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [documentFile, dir] = process.argv.slice(2);
const document = JSON.parse(readFileSync(documentFile, 'utf8'));
const seen = new Map();
if (existsSync(dir)) {
  for (const file of readdirSync(dir)) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      const match = /^(\S+) (\S+) (\d+)$/.exec(line);
      if (!match) continue;
      const operation = `${match[1]} ${match[2]}`;
      if (!seen.has(operation)) seen.set(operation, new Set());
      seen.get(operation).add(match[3]);
    }
  }
}
const documented = [];
for (const [path, item] of Object.entries(document.paths)) {
  for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
    if (item[method]) documented.push(`${method.toUpperCase()} ${path}`);
  }
}
const missing = documented.filter((operation) => !seen.has(operation));
const statuses = [...seen.values()].reduce((sum, set) => sum + set.size, 0);
console.log(
  `[openapi] ${documented.length - missing.length} of ${documented.length} documented operations exercised by the end-to-end suites (${statuses} operation-status pairs checked against the document)`,
);
for (const operation of missing) console.log(`[openapi] never exercised: ${operation}`);
process.exit(missing.length === 0 ? 0 : 1);
