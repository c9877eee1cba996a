/**
 * Makes a new service on the service kit, deciding one example request: its entry in the service
 * catalog, its facts topic, its request and fact types in libs/contracts (in the typed request map),
 * its app under apps/<name>/ (declaration, config, one entity and its migration, a DomainException with
 * its code map, the use case deciding the request through the shared frame, a read controller) with an
 * integration suite on the kit's harness, and then its manifests (scripts/generate-manifests.ts). The
 * service boots, migrates, answers /health, /ready and /metrics, and rebuilds with `ops replay`.
 *
 *   node -r @swc-node/register scripts/new-service.ts <name> [--entity <entity>]
 *
 * <name> and <entity> are lower-case words joined by hyphens; the entity is `item` unless given.
 * Nothing is written when anything is in the way. scripts/check-generator.sh proves what it makes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

import { format, resolveConfig } from 'prettier';

// Not through `@cms/config`: its index loads the record contracts, which need reflect-metadata.
import { SERVICE_CATALOG } from '../libs/config/src/services';
import { TOPICS, type TopicKey } from '../libs/contracts/src/topics';
import {
  addCatalogEntry,
  addContractsExport,
  addOwnTables,
  addRequestPayloads,
  addTopic,
  ShapeError,
} from './new-service/edits';
import { namesOf, render, UsageError, type Names } from './new-service/names';

const ROOT = join(__dirname, '..');
const TEMPLATES = join(__dirname, 'new-service', 'files');
/** Topics that carry no service's facts. */
const NOT_FACTS = new Set<string>(['requests', 'outcomes', 'deadLetters']);

const USAGE = 'usage: node -r @swc-node/register scripts/new-service.ts <name> [--entity <entity>]';

function parseArgs(argv: string[]): { name: string; entity: string } {
  const [name, ...rest] = argv;
  if (name === undefined || name.startsWith('-')) throw new UsageError(USAGE);
  if (rest.length === 0) return { name, entity: 'item' };
  if (rest.length === 2 && rest[0] === '--entity') return { name, entity: rest[1]! };
  throw new UsageError(USAGE);
}

function read(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** Whether an app publishes on the topic: the services' sources name their facts topic `topics.<key>`. */
function topicInUse(key: string): boolean {
  const pattern = new RegExp(`\\btopics\\.${key}\\b`);
  return readdirSync(join(ROOT, 'apps')).some((app) => {
    const src = join(ROOT, 'apps', app, 'src');
    return (
      existsSync(src) &&
      filesUnder(src).some((file) => file.endsWith('.ts') && pattern.test(readFileSync(file, 'utf8')))
    );
  });
}

/** The tokens of the templates: the names, the service's port and facts topic, the migration's time. */
type Tokens = Names & { port: string; timestamp: string };

/** What refuses the name: another service, app or topic owner has it, or the contracts already hold its types. */
function checkFree(tokens: Tokens): void {
  const { name, topicKey } = tokens;
  if (SERVICE_CATALOG.some((service) => service.name === name))
    throw new UsageError(`${name} is already a service of libs/config/src/services.ts`);
  if (existsSync(join(ROOT, 'apps', name))) throw new UsageError(`apps/${name} already exists`);
  if (existsSync(join(ROOT, 'libs', 'contracts', 'src', name)))
    throw new UsageError(`libs/contracts/src/${name} already exists`);
  if (NOT_FACTS.has(topicKey) || (topicKey in TOPICS && topicInUse(topicKey)))
    throw new UsageError(`the topic ${topicKey} of TOPICS is another service's: choose another name`);
  const contracts = filesUnder(join(ROOT, 'libs', 'contracts', 'src'))
    .filter((file) => file.endsWith('.ts'))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  const declared = [
    `${tokens.NAME}_REQUEST_TYPES`,
    `${tokens.NAME}_FACT_TYPES`,
    `${tokens.NAME}_REQUEST_SCHEMAS`,
    `${tokens.NAME}_RECORD_TYPES`,
    `${tokens.Name}RequestPayloads`,
    `${tokens.Resource}CreateRequestedV1`,
    `${tokens.Resource}CreatedV1`,
  ].filter((identifier) => new RegExp(`\\b${identifier}\\b`).test(contracts));
  const types = [`'${tokens.resource}.create.requested'`, `'${tokens.resource}.created'`].filter((type) =>
    contracts.includes(type),
  );
  if (declared.length + types.length > 0)
    throw new UsageError(`libs/contracts already declares ${[...declared, ...types].join(', ')}`);
}

/** Every file the service adds or changes, by path relative to the repository, unformatted. */
function plan(tokens: Tokens): Map<string, string> {
  const files = new Map<string, string>();
  for (const template of filesUnder(TEMPLATES)) {
    const path = render(relative(TEMPLATES, template), tokens, template).replace(/\.tmpl$/, '');
    if (existsSync(join(ROOT, path))) throw new UsageError(`${path} already exists`);
    files.set(path, render(readFileSync(template, 'utf8'), tokens, template));
  }
  const catalog = 'libs/config/src/services.ts';
  files.set(
    catalog,
    addCatalogEntry(read(catalog), {
      name: tokens.name,
      httpPort: Number(tokens.port),
      schema: tokens.schema,
    }),
  );
  if (!(tokens.topicKey in TOPICS)) {
    const topics = 'libs/contracts/src/topics.ts';
    files.set(topics, addTopic(read(topics), tokens.topicKey, tokens.topic));
  }
  const payloads = 'libs/contracts/src/requests/request-payloads.ts';
  files.set(
    payloads,
    addRequestPayloads(read(payloads), {
      path: `../${tokens.name}/${tokens.name}.records`,
      schemas: `${tokens.NAME}_REQUEST_SCHEMAS`,
      payloads: `${tokens.Name}RequestPayloads`,
    }),
  );
  const index = 'libs/contracts/src/index.ts';
  files.set(index, addContractsExport(read(index), `./${tokens.name}/${tokens.name}.records`));
  const migrateSuite = 'tests/e2e/test/migrate-command.int-spec.ts';
  files.set(migrateSuite, addOwnTables(read(migrateSuite), tokens.name, [tokens.entitiesSnake]));
  return files;
}

async function main(argv: string[]): Promise<void> {
  const { name, entity } = parseArgs(argv);
  const names = namesOf(name, entity);
  const topicKey = names.topicKey as TopicKey;
  const port = Math.max(...SERVICE_CATALOG.map((service) => service.httpPort)) + 1;
  const tokens: Tokens = {
    ...names,
    // A topic TOPICS holds already (one kept for a service to come) keeps its name.
    ...(topicKey in TOPICS ? { topic: TOPICS[topicKey] } : {}),
    port: String(port),
    timestamp: String(Date.now()),
  };
  checkFree(tokens);
  const files = plan(tokens);
  const formatted = new Map<string, string>();
  for (const [path, text] of files) {
    const options = await resolveConfig(join(ROOT, path));
    formatted.set(path, await format(text, { ...options, filepath: join(ROOT, path) }));
  }
  for (const [path, text] of formatted) {
    mkdirSync(dirname(join(ROOT, path)), { recursive: true });
    writeFileSync(join(ROOT, path), text);
    console.log(`wrote ${path}`);
  }
  execFileSync(process.execPath, ['-r', '@swc-node/register', 'scripts/generate-manifests.ts'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  console.log(`
${name}: port ${port}, schema ${tokens.schema}, facts on ${tokens.topic}. Its suite:
  NODE_OPTIONS="--experimental-vm-modules --no-warnings" jest --runInBand --selectProjects integration --testPathPatterns apps/${name}/
For clients to reach it, give the gateway its write route (producing ${tokens.resource}.create.requested) and
its read proxy (add ${name} to the gateway's upstreams in libs/config/src/services.ts).`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof UsageError || error instanceof ShapeError ? error.message : error);
  process.exitCode = error instanceof UsageError ? 2 : 1;
});
