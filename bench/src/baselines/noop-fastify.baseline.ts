import { spawn } from 'node:child_process';
import { join } from 'node:path';

import {
  findSustainedRate,
  type RequestSource,
  type SearchOptions,
  type SustainedSearch,
} from '../load/closed-loop.load';
import { ROOT, signal } from '../support/bench-system';

export interface NoopSearchOptions extends SearchOptions {
  track(pid: number | undefined, name: string): void;
}

/**
 * A no-op Fastify route in a process of its own (as the gateway is), under the same load tool, the same
 * requests and the same search as the gateway's rate.
 */
export async function noopFastifyBaseline(
  source: RequestSource,
  options: NoopSearchOptions,
): Promise<SustainedSearch> {
  const child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', join(__dirname, 'noop-fastify.server.ts')],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  options.track(child.pid, 'noop-fastify');
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const line = out.split('\n').find((candidate) => candidate.startsWith('http://'));
        if (line) resolve(line.trim());
      });
      child.once('exit', (code) => reject(new Error(`the no-op server exited with ${code}`)));
    });
    return await findSustainedRate(url, source, options);
  } finally {
    await signal(child, 'SIGTERM');
  }
}
