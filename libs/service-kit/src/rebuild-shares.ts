import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';

// Node's own modules only (`@cms/service-kit/shares`): `main.js rebuild` starts the other processes
// before it loads the service.

/** What the first process of a rebuild tells the others once the schema is prepared. */
export const PREPARED = 'rebuild-prepared';

export interface RebuildShare {
  index: number;
  of: number;
}

/** REBUILD_PROCESSES: a count of at least 1, one per core (at most 2) when unset; undefined when invalid. */
export function rebuildProcesses(text: string | undefined): number | undefined {
  if (text === undefined) return Math.min(2, availableParallelism());
  const count = /^\d+$/.test(text.trim()) ? Number(text) : NaN;
  return Number.isSafeInteger(count) && count >= 1 ? count : undefined;
}

/** REBUILD_SHARE, `index/of`; undefined when invalid. */
export function rebuildShare(text: string): RebuildShare | undefined {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (!match) return undefined;
  const [index, of] = [Number(match[1]), Number(match[2])];
  return index < of ? { index, of } : undefined;
}

export interface Shares {
  /** Lets the others start applying: the schema is prepared. */
  prepared(): void;
  /** Settles when they have all exited; rejects when one failed. */
  exited: Promise<void>;
}

/**
 * Starts the other processes of a rebuild (`main.js rebuild` with REBUILD_SHARE), each applying its
 * share of the partitions. They load while this one does and prepares the schema, and apply nothing
 * until told it is prepared. They stop with this process: on its signals, and when it is gone.
 */
export function startShares(of: number): Shares {
  const children: ChildProcess[] = [];
  const exits: Array<Promise<void>> = [];
  for (let index = 1; index < of; index += 1) {
    const child = fork(process.argv[1]!, ['rebuild'], {
      env: { ...process.env, REBUILD_SHARE: `${index}/${of}` },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    children.push(child);
    const stop = (): void => {
      child.kill('SIGTERM');
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    exits.push(
      new Promise<void>((resolve, reject) => {
        child.once('error', reject);
        child.once('exit', (code, signal) => {
          process.removeListener('SIGTERM', stop);
          process.removeListener('SIGINT', stop);
          if (code === 0) resolve();
          else reject(new Error(`rebuild process ${index}/${of} exited with ${code ?? signal}`));
        });
      }),
    );
  }
  const exited = Promise.all(exits).then(() => undefined);
  // Whoever awaits it sees the failure; until then it must not count as unhandled.
  exited.catch(() => undefined);
  return {
    prepared: () => {
      for (const child of children) if (child.connected) child.send(PREPARED);
    },
    exited,
  };
}

/** In a process started by startShares: resolves once the first process has prepared the schema. */
export function whenPrepared(): Promise<void> {
  // Ends with the first process.
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  return new Promise((resolve) => {
    process.on('message', (message) => {
      if (message === PREPARED) resolve();
    });
  });
}

/**
 * For `main.js`: the other processes of a rebuild in shares, started before this one loads the
 * service so that they load on the other cores meanwhile (loading is a good part of a short rebuild).
 */
export function earlyShares(command: string | undefined): Shares | undefined {
  if (command !== 'rebuild' || process.env.REBUILD_SHARE !== undefined) return undefined;
  const of = rebuildProcesses(process.env.REBUILD_PROCESSES);
  return of !== undefined && of > 1 ? startShares(of) : undefined;
}
