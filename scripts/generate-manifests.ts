/**
 * Writes, from the service catalog (libs/config/src/services.ts), the files that list the services and
 * cannot import it: scripts/services.sh (what `npm start` runs), docker-compose.yml, each service's
 * Kustomize base under deploy/k8s/base/<service>/ and the overlays' kustomization.yaml. They are checked
 * in; `--check` writes nothing and fails when one of them differs from what the catalog makes (npm test
 * runs it).
 *
 *   node -r @swc-node/register scripts/generate-manifests.ts [--check]
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

// Not through `@cms/config`: its index loads the record contracts, which need reflect-metadata.
import { nodeMemoryArgs } from '../libs/config/src/memory';
import { memoryLimitOf, SERVICE_CATALOG, type ServiceEntry } from '../libs/config/src/services';
import { composeFile } from './manifests/compose';
import { kubernetesFiles } from './manifests/kubernetes';
import { GENERATED } from './manifests/text';

const ROOT = join(__dirname, '..');
const K8S = join(ROOT, 'deploy', 'k8s');
/** The bases under deploy/k8s/base that are written by hand: they are no service of the catalog. */
const HAND_WRITTEN_BASES = new Set(['common', 'ops']);

function servicesScript(services: readonly ServiceEntry[]): string {
  return `${GENERATED}
# The services \`npm start\` runs, each as
# "<app>:<http port>:<database schema>:<memory limit in MiB>:<its heap's Node options>".
SERVICES=(
${services.map((service) => `  "${[service.name, service.httpPort, service.schema, memoryLimitOf(service), nodeMemoryArgs(String(memoryLimitOf(service))).join(' ')].join(':')}"`).join('\n')}
)
`;
}

/** Every generated file, by path relative to the repository. */
function generate(services: readonly ServiceEntry[]): Map<string, string> {
  const release = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string })
    .version;
  // A service's settings for this installation, merged into its ConfigMap where such a file exists.
  const productionEnvFiles = new Set(
    services
      .map((service) => service.name)
      .filter((name) => existsSync(join(K8S, 'overlays', 'production', `${name}.env`))),
  );
  const files = new Map<string, string>([
    ['scripts/services.sh', servicesScript(services)],
    ['docker-compose.yml', composeFile(services)],
  ]);
  for (const [path, text] of kubernetesFiles(services, release, productionEnvFiles))
    files.set(`deploy/k8s/${path}`, text);
  return files;
}

/**
 * Files under the generated bases that the catalog no longer makes: a base of a service that left the
 * catalog, or a file its entry no longer asks for (hpa.yaml of a service that became a consumer).
 */
function leftovers(files: Map<string, string>): string[] {
  const bases = join(K8S, 'base');
  return readdirSync(bases, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !HAND_WRITTEN_BASES.has(entry.name))
    .flatMap((entry) =>
      readdirSync(join(bases, entry.name)).map((file) => relative(ROOT, join(bases, entry.name, file))),
    )
    .filter((path) => !files.has(path));
}

function main(check: boolean): number {
  const files = generate(SERVICE_CATALOG);
  const stale = [...files].filter(
    ([path, text]) => !existsSync(join(ROOT, path)) || readFileSync(join(ROOT, path), 'utf8') !== text,
  );
  const extra = leftovers(files);
  if (check) {
    for (const [path] of stale) console.error(`${path} is not what libs/config/src/services.ts makes`);
    for (const path of extra) console.error(`${path} belongs to no service of libs/config/src/services.ts`);
    if (stale.length + extra.length === 0) return 0;
    console.error('run: node -r @swc-node/register scripts/generate-manifests.ts');
    return 1;
  }
  for (const [path, text] of stale) {
    mkdirSync(dirname(join(ROOT, path)), { recursive: true });
    writeFileSync(join(ROOT, path), text);
    console.log(`wrote ${path}`);
  }
  for (const path of extra) {
    rmSync(join(ROOT, path));
    console.log(`removed ${path}`);
    const dir = dirname(join(ROOT, path));
    if (readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
  }
  return 0;
}

process.exitCode = main(process.argv.includes('--check'));
