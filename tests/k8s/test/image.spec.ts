import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { nodeMemoryArgs, SERVICE_NAMES } from '@cms/config';

/**
 * The image recipe, read as text: the build itself needs an engine or buildah
 * (deploy/image/build.sh and smoke.sh), so what can be held without one is held here.
 */
const ROOT = join(__dirname, '..', '..', '..');
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));
const stageStarts = instructions.flatMap((line, index) => (/^FROM\s/i.test(line) ? [index] : []));
const runtime = instructions.slice(stageStarts.at(-1));
/** The apps an image runs: every folder of apps/ but the console, which the gateway serves from dist/console. */
const apps = readdirSync(join(ROOT, 'apps'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'console')
  .map((entry) => entry.name);

describe('Dockerfile', () => {
  it('builds in one stage and runs from another that takes only the production parts', () => {
    expect(stageStarts.length).toBe(2);
    expect(instructions[stageStarts[0]!]).toMatch(/^FROM \$\{NODE_IMAGE\} AS build$/);
    expect(runtime[0]).toMatch(/^FROM \$\{NODE_IMAGE\} AS runtime$/);
    const copies = runtime.filter((line) => line.startsWith('COPY'));
    expect(copies.every((line) => line.includes('--from=build'))).toBe(true);
    expect(copies.map((line) => line.split(/\s+/).at(-2))).toEqual([
      '/app/package.json',
      '/app/node_modules',
      '/app/dist',
    ]);
    // The dev dependencies (compilers, test tools, the npm `node` binary package) are pruned first.
    expect(instructions.some((line) => /npm prune --omit=dev/.test(line))).toBe(true);
    // `npm install`, not `npm ci`: the lockfile holds only this platform's optional native packages.
    expect(instructions.some((line) => /^RUN npm install\b/.test(line))).toBe(true);
  });

  it('runs as the unprivileged node user, whose uid the pods run as', () => {
    expect(runtime.filter((line) => line.startsWith('USER'))).toEqual(['USER node']);
    const deployment = readFileSync(
      join(ROOT, 'deploy', 'k8s', 'base', 'gateway', 'deployment.yaml'),
      'utf8',
    );
    // uid 1000 is `node` in the official Node images and in deploy/image/base-image.sh.
    expect(deployment).toMatch(/runAsUser: 1000\b/);
    expect(readFileSync(join(ROOT, 'deploy', 'image', 'base-image.sh'), 'utf8')).toMatch(
      /useradd --uid 1000 --gid node/,
    );
  });

  it("starts any app's compiled main, with the arguments given after the image", () => {
    const entrypoint = runtime.find((line) => line.startsWith('ENTRYPOINT'));
    expect(entrypoint).toBeDefined();
    const argv = JSON.parse(entrypoint!.slice('ENTRYPOINT'.length)) as string[];
    expect(argv.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    // Run as the image runs it, `node` echoed: the heap within MEMORY_LIMIT_MIB when the container has one.
    const command = argv[2]!.replace('exec node ', 'exec echo node ');
    expect(command).not.toBe(argv[2]);
    const started = (env: Record<string, string>) =>
      execFileSync('/bin/sh', ['-c', command, '--', 'topics', 'create'], {
        env: { PATH: process.env['PATH'] ?? '', APP: 'ops', ...env },
      })
        .toString()
        .trim();
    expect(started({})).toBe('node dist/apps/ops/src/main.js topics create');
    for (const limit of ['256', '512', '1024'])
      expect(started({ MEMORY_LIMIT_MIB: limit })).toBe(
        ['node', ...nodeMemoryArgs(limit), 'dist/apps/ops/src/main.js topics create'].join(' '),
      );
    expect(apps).toEqual(expect.arrayContaining([...SERVICE_NAMES, 'ops']));
    for (const app of apps)
      expect([app, existsSync(join(ROOT, 'apps', app, 'src', 'main.ts'))]).toEqual([app, true]);
  });

  it('builds the console into dist/, which the runtime stage copies for the gateway to serve at /app', () => {
    expect(readFileSync(join(ROOT, 'scripts', 'build.mjs'), 'utf8')).toContain(
      'apps/console/vite.config.mts',
    );
    expect(runtime.some((line) => /^COPY --from=build .*\/app\/dist \.\/dist$/.test(line))).toBe(true);
  });

  it('copies every folder the build reads, and .dockerignore keeps the rest out of the context', () => {
    for (const path of ['apps', 'libs', 'scripts/build.mjs', 'tsconfig.base.json', 'package-lock.json'])
      expect(instructions.some((line) => line.startsWith('COPY') && line.split(/\s+/).includes(path))).toBe(
        true,
      );
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'dist', '.local', '.git']));
  });
});
