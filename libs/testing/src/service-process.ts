import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';

import { nodeMemoryArgs } from '@cms/config';

import { eventually } from './unique';

/**
 * What every service a test starts is told beside its addresses: a 1 s long poll instead of the
 * product's 10 s (KAFKA_FETCH_WAIT_MS), since a stopping consumer waits for its fetch in flight and the
 * suites stop and start services many times. A record answers a fetch at once either way.
 */
export const TEST_SERVICE_ENV: Readonly<Record<string, string>> = { KAFKA_FETCH_WAIT_MS: '1000' };

export interface ServiceProcessOptions {
  /** The checkout: the service runs `dist/apps/<name>/src/main.js` from here. */
  root: string;
  /** The service's whole environment (PATH is added). */
  env: Record<string, string>;
  /** Appended to with the service's stdout and stderr. */
  logFile: string;
  /** Node options before the script, e.g. a preload. */
  nodeArgs?: string[];
  /** The script, from `root`: the built `dist/apps/<name>/src/main.js` unless given. */
  script?: string;
}

/**
 * A service as a process of its own (built into dist/ unless another script is given), its output
 * appended to `logFile`.
 */
export function spawnService(name: string, options: ServiceProcessOptions): ChildProcess {
  // The service writes its log straight into the file, as it does under `npm start`. Piped through
  // this process instead, its logging would wait whenever this process is busy (a load generator is),
  // and a service blocked on its log is not what a test or a benchmark means to measure.
  const log = openSync(options.logFile, 'a');
  try {
    return spawn(
      process.execPath,
      [
        // Its heap within MEMORY_LIMIT_MIB, when the environment gives one, as its container would.
        ...nodeMemoryArgs(options.env['MEMORY_LIMIT_MIB']),
        ...(options.nodeArgs ?? []),
        join(options.root, options.script ?? join('dist', 'apps', name, 'src', 'main.js')),
      ],
      {
        cwd: options.root,
        env: { PATH: process.env.PATH ?? '', ...options.env },
        stdio: ['ignore', log, log],
      },
    );
  } finally {
    closeSync(log);
  }
}

/** Waits until the service answers 200 on /ready; fails at once if it exits. */
export async function waitServiceReady(
  name: string,
  child: ChildProcess,
  port: number,
  options: { logFile: string; timeoutMs: number },
): Promise<void> {
  // An exit ends the wait (an error thrown in the check would only be retried until the timeout).
  let exitCode: number | null = null;
  await eventually(
    `${name} ready (log: ${options.logFile})`,
    async () => {
      exitCode = child.exitCode;
      if (exitCode !== null) return true;
      const response = await fetch(`http://127.0.0.1:${port}/ready`);
      return response.status === 200;
    },
    options.timeoutMs,
    200,
  );
  if (exitCode !== null) throw new Error(`${name} exited with ${exitCode} (log: ${options.logFile})`);
}

/** Sends `sig` and resolves when the process has exited; SIGKILL after `killAfterMs`. */
export function stopProcess(child: ChildProcess, sig: NodeJS.Signals, killAfterMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(sig);
  });
}
