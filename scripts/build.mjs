// Compiles apps and libs to dist/ with swc (decorator metadata included; path aliases rewritten to
// relative imports), after a full type check with tsc, then the console (apps/console, a single-page
// application) to dist/console with Vite, which the gateway serves at /app. One build for the whole
// workspace: it takes seconds, and every app's image copies the same dist/.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });

if (!process.argv.includes('--no-typecheck')) {
  run(bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']);
  run(bin('tsc'), ['-p', 'apps/console/tsconfig.json', '--noEmit']);
}
rmSync(join(root, 'dist'), { recursive: true, force: true });
run(bin('swc'), [
  'apps',
  'libs',
  '-d',
  'dist',
  '--config-file',
  '.swcrc',
  '--copy-files',
  '--ignore',
  '**/*.spec.ts,**/*.int-spec.ts,**/test/**,apps/console/**',
  '--quiet',
]);
run(bin('vite'), ['build', '--config', 'apps/console/vite.config.mts', '--logLevel', 'warn']);
