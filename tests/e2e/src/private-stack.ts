import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';

import { freePorts, testStack, uniqueName, type TestStack } from '@cms/testing';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..', '..');
const SCRIPT = join(ROOT, 'deploy', 'local', 'stack.sh');
/** Every private stack lives in a directory of its own under here while its suite runs. */
const BASE = join(ROOT, '.local', 'fault-stack');
/** Where a stack's logs are kept after it is torn down. */
const LOGS = join(ROOT, '.local', 'logs', 'e2e');
const OWNER_FILE = 'owner.pid';

export type StackPart = 'kafka' | 'postgres';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readEnvFile(file: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^export ([A-Z_]+)=["']?(.*?)["']?$/.exec(line.trim());
    if (match) values[match[1]!] = match[2]!;
  }
  return values;
}

/**
 * A Kafka broker and a throwaway Postgres of a suite's own (deploy/local/stack.sh under a STACK_DIR of
 * its own, on free ports), which the suite may crash and restart at will: the shared stack other
 * suites and engineers use is never touched. Redis is the shared one; nothing here restarts it.
 */
export class PrivateStack {
  private constructor(
    readonly dir: string,
    private readonly env: NodeJS.ProcessEnv,
    readonly stack: TestStack,
  ) {}

  static async start(): Promise<PrivateStack> {
    await PrivateStack.sweepAbandoned();
    const shared = await testStack();
    const dir = join(BASE, uniqueName('stack'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, OWNER_FILE), String(process.pid));
    const [kafkaPort, controllerPort, pgPort] = await freePorts(3);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      STACK_DIR: dir,
      // The jars the shared stack already fetched (fetched there first when they are missing).
      KAFKA_JARS_DIR: join(process.env.STACK_DIR ?? join(ROOT, '.local'), 'kafka', 'libs'),
      KAFKA_PORT: String(kafkaPort),
      KAFKA_CONTROLLER_PORT: String(controllerPort),
      KAFKA_HEAP_OPTS: '-Xms128m -Xmx384m',
      PG_PORT: String(pgPort),
      PG_THROWAWAY: '1',
      REDIS_URL: shared.redisUrl,
    };
    delete env.DATABASE_URL;
    delete env.KAFKA_BROKERS;
    let stack: PrivateStack | undefined;
    try {
      await PrivateStack.script(env, ['up']);
      const addresses = readEnvFile(join(dir, 'stack.env'));
      stack = new PrivateStack(dir, env, {
        kafkaBrokers: [addresses.KAFKA_BROKERS!],
        databaseUrl: addresses.DATABASE_URL!,
        redisUrl: addresses.REDIS_URL!,
        origin: 'local-stack',
        stop: async () => undefined,
      });
      return stack;
    } finally {
      if (!stack) await PrivateStack.tearDown(env, dir);
    }
  }

  /** Stops the part (a crash with `kill`: SIGKILL for Kafka, immediate mode for Postgres). */
  async stop(part: StackPart, options: { kill?: boolean } = {}): Promise<void> {
    await PrivateStack.script(this.env, ['stop', part, ...(options.kill ? ['--kill'] : [])]);
  }

  /** Starts the part again on the same port and data; resolves once it answers. */
  async start(part: StackPart): Promise<void> {
    await PrivateStack.script(this.env, ['start', part]);
  }

  /** Stops everything this stack started, keeps its logs under .local/logs/e2e, deletes its data. */
  async down(): Promise<void> {
    await PrivateStack.tearDown(this.env, this.dir);
  }

  private static async script(env: NodeJS.ProcessEnv, args: string[]): Promise<void> {
    try {
      await run(SCRIPT, args, { env, cwd: ROOT, timeout: 180000 });
    } catch (error) {
      const { stderr } = error as { stderr?: string };
      throw new Error(`stack.sh ${args.join(' ')} failed: ${String(error)}\n${stderr ?? ''}`);
    }
  }

  private static async tearDown(env: NodeJS.ProcessEnv, dir: string): Promise<void> {
    const own = { ...env, STACK_DIR: dir };
    try {
      // The data goes too, so there is nothing to shut down cleanly for.
      await PrivateStack.script(own, ['stop', 'kafka', '--kill']);
      await PrivateStack.script(own, ['stop', 'postgres', '--kill']);
      await PrivateStack.script(own, ['down']);
    } finally {
      if (existsSync(join(dir, 'logs'))) {
        mkdirSync(LOGS, { recursive: true });
        renameSync(join(dir, 'logs'), join(LOGS, `${basename(dir)}-logs`));
      }
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** A run that died without its afterAll (SIGKILL, a lost machine) leaves a broker behind: stop it. */
  private static async sweepAbandoned(): Promise<void> {
    if (!existsSync(BASE)) return;
    for (const name of readdirSync(BASE)) {
      const dir = join(BASE, name);
      const owner = Number(
        existsSync(join(dir, OWNER_FILE)) ? readFileSync(join(dir, OWNER_FILE), 'utf8') : 0,
      );
      if (owner > 0 && alive(owner)) continue;
      const env: NodeJS.ProcessEnv = { ...process.env, PG_THROWAWAY: '1' };
      delete env.DATABASE_URL;
      await PrivateStack.tearDown(env, dir).catch(() => undefined);
    }
  }
}
