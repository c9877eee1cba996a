import type { DataSource } from 'typeorm';

import type { GatewayConfig } from '../config';
import { ApiKeyAuthenticator } from './api-key.authenticator';
import { hashApiKey, mintApiKey } from './api-key.secret';

const TTL_MS = 2000;

/** The api_keys table as the authenticator reads it, with reads the test answers when it likes. */
class FakeKeys {
  reads = 0;
  readonly rows = new Map<
    string,
    { id: number; workspace_id: number; permissions: string[]; plan: string }
  >();
  private readonly waiting: Array<() => void> = [];

  /** The keys each read asked for. */
  readonly asked: string[][] = [];

  readonly dataSource = {
    query: async (_sql: string, [hashes]: [string[]]) => {
      this.reads += 1;
      this.asked.push(hashes);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      return hashes.flatMap((hash) => {
        const row = this.rows.get(hash);
        return row ? [{ ...row, key_hash: hash }] : [];
      });
    },
  } as unknown as DataSource;

  /** Answers the reads asked so far (a read starts at the turn after its key was asked for). */
  async answer(): Promise<void> {
    await turn();
    for (const resolve of this.waiting.splice(0)) resolve();
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
  }
}

function setUp(): { keys: FakeKeys; auth: ApiKeyAuthenticator; bearer: string; hash: string } {
  const keys = new FakeKeys();
  const auth = new ApiKeyAuthenticator({ keyCacheTtlMs: TTL_MS } as GatewayConfig, keys.dataSource);
  const { key } = mintApiKey();
  const hash = hashApiKey(key);
  keys.rows.set(hash, { id: 7, workspace_id: 3, permissions: ['read'], plan: 'pro' });
  return { keys, auth, bearer: `Bearer ${key}`, hash };
}

/** A turn of the event loop (setImmediate is not faked: keys asked in a turn are read together after it). */
const turn = () => new Promise((resolve) => setImmediate(resolve));

async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
  return done;
}

describe('ApiKeyAuthenticator', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000, doNotFake: ['setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  it('reads a key not seen lately once, however many requests ask at the same time', async () => {
    const { keys, auth, bearer } = setUp();
    const answers = [auth.authenticate(bearer), auth.authenticate(bearer), auth.authenticate(bearer)];
    await keys.answer();
    const principals = await Promise.all(answers);
    expect(principals.map((p) => [p.apiKeyId, p.workspaceId, p.plan])).toEqual([
      [7, 3, 'pro'],
      [7, 3, 'pro'],
      [7, 3, 'pro'],
    ]);
    expect(keys.reads).toBe(1);
  });

  it('reads the keys that many requests ask for at once in one statement', async () => {
    const { keys, auth, bearer, hash } = setUp();
    const other = mintApiKey();
    keys.rows.set(hashApiKey(other.key), {
      id: 8,
      workspace_id: 4,
      permissions: ['create'],
      plan: 'business',
    });
    const unknown = mintApiKey();
    const answers = [
      auth.authenticate(bearer),
      auth.authenticate(`Bearer ${other.key}`),
      auth.authenticate(`Bearer ${unknown.key}`),
    ];
    await keys.answer();
    expect(keys.asked).toEqual([[hash, hashApiKey(other.key), hashApiKey(unknown.key)]]);
    await expect(answers[0]).resolves.toMatchObject({ apiKeyId: 7, workspaceId: 3, plan: 'pro' });
    await expect(answers[1]).resolves.toMatchObject({ apiKeyId: 8, workspaceId: 4, plan: 'business' });
    await expect(answers[2]).rejects.toMatchObject({ status: 401 });
  });

  it('answers a key in use without waiting, reading it again in the background after half the TTL', async () => {
    const { keys, auth, bearer } = setUp();
    const first = auth.authenticate(bearer);
    await keys.answer();
    await first;

    jest.advanceTimersByTime(TTL_MS / 2 - 1);
    expect(await isSettled(auth.authenticate(bearer))).toBe(true);
    expect(keys.reads).toBe(1);

    jest.advanceTimersByTime(1);
    expect(await isSettled(auth.authenticate(bearer))).toBe(true);
    expect(await isSettled(auth.authenticate(bearer))).toBe(true);
    await turn();
    expect(keys.reads).toBe(2);
    await keys.answer();

    // Read again at TTL/2: good until 1.5 TTL from the start without another wait.
    jest.advanceTimersByTime(TTL_MS - 1);
    expect(await isSettled(auth.authenticate(bearer))).toBe(true);
  });

  it('refuses a deleted key once the answer that still had it is TTL old, whatever the traffic', async () => {
    const { keys, auth, bearer, hash } = setUp();
    const first = auth.authenticate(bearer);
    await keys.answer();
    await first;
    keys.rows.delete(hash);

    // A background read at TTL/2 that the database is slow to answer: the old answer stays until TTL.
    jest.advanceTimersByTime(TTL_MS / 2);
    await auth.authenticate(bearer);
    jest.advanceTimersByTime(TTL_MS / 2 - 1);
    await expect(auth.authenticate(bearer)).resolves.toMatchObject({ apiKeyId: 7 });

    jest.advanceTimersByTime(1);
    const late = auth.authenticate(bearer);
    expect(await isSettled(late)).toBe(false);
    await keys.answer();
    await expect(late).rejects.toMatchObject({ status: 401 });
  });

  it('does not cache a failed read: the next request reads again', async () => {
    const { keys, auth, bearer } = setUp();
    const failing = {
      query: async () => {
        keys.reads += 1;
        throw new Error('connection refused');
      },
    } as unknown as DataSource;
    const down = new ApiKeyAuthenticator({ keyCacheTtlMs: TTL_MS } as GatewayConfig, failing);
    await expect(down.authenticate(bearer)).rejects.toThrow('connection refused');
    await expect(down.authenticate(bearer)).rejects.toThrow('connection refused');
    expect(keys.reads).toBe(2);
    await expect(auth.authenticate('Bearer')).rejects.toMatchObject({ status: 401 });
  });
});
