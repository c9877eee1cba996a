import { JsonApiException } from '@cms/http';

import type { GatewayConfig } from '../config';
import type { UpstreamAnswer, UpstreamProxy } from '../proxy/upstream.proxy';
import { LinkResolver, MAX_LOOKUPS_IN_FLIGHT } from './link-resolver';

const config = { links: { clicksPerClient: 20, recordsPerWorkspace: 1000, cacheSize: 2 } } as GatewayConfig;

function tokenOf(n: number): string {
  return `tok${String(n).padStart(19, '0')}`;
}

/** The messaging service's lookups, each answered when the test says. */
class FakeLookups {
  readonly asked: string[] = [];
  private readonly pending: Array<(answer: UpstreamAnswer) => void> = [];

  get(_service: string, path: string): Promise<UpstreamAnswer> {
    this.asked.push(path);
    return new Promise((resolve) => void this.pending.push(resolve));
  }

  answerAll(): void {
    for (const [index, resolve] of this.pending.splice(0).entries()) {
      resolve({
        status: 200,
        body: {
          data: {
            workspace_id: 5,
            message_id: 'msg_0123456789abcdef0123456789abcdef',
            link_index: index,
            url: 'https://x.example',
          },
        },
      });
    }
  }
}

describe('resolving tracked links at the gateway', () => {
  it('asks once for concurrent clicks of a token, then answers from memory without a promise', async () => {
    const lookups = new FakeLookups();
    const resolver = new LinkResolver(config, lookups as unknown as UpstreamProxy);
    const first = resolver.resolve(tokenOf(1));
    const second = resolver.resolve(tokenOf(1));
    expect(lookups.asked).toEqual([`links/${tokenOf(1)}`]);
    lookups.answerAll();
    expect(await first).toEqual(await second);
    const cached = resolver.resolve(tokenOf(1));
    expect(cached).not.toBeInstanceOf(Promise);
    expect(cached).toMatchObject({ workspaceId: 5, url: 'https://x.example' });
    expect(lookups.asked).toHaveLength(1);
  });

  it('refuses a malformed token as unknown without asking, and bounds the lookups in flight', () => {
    const lookups = new FakeLookups();
    const resolver = new LinkResolver(config, lookups as unknown as UpstreamProxy);
    expect(() => resolver.resolve('../../admin')).toThrow(JsonApiException);
    expect(lookups.asked).toEqual([]);
    for (let n = 0; n < MAX_LOOKUPS_IN_FLIGHT; n += 1) void resolver.resolve(tokenOf(n));
    let refused: unknown;
    try {
      void resolver.resolve(tokenOf(MAX_LOOKUPS_IN_FLIGHT));
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(JsonApiException);
    expect((refused as JsonApiException).getStatus()).toBe(503);
    lookups.answerAll();
  });
});
