import { LruCache } from './link-cache';
import { WindowedBound } from './windowed-bound';

describe('the bounds and cache of tracked-link redirects', () => {
  it('allows perSecond × window events per key in a window, then answers when the window ends', () => {
    const bound = new WindowedBound(2, 10);
    const start = 1_000_000;
    for (let i = 0; i < 20; i += 1) expect(bound.take('a', start + i).allowed).toBe(true);
    expect(bound.take('a', start + 3_500)).toEqual({ allowed: false, retryAfterSeconds: 7 });
    expect(bound.take('b', start + 3_500).allowed).toBe(true);
    expect(bound.take('a', start + 10_000).allowed).toBe(true);
  });

  it('never refuses a newcomer because the map of keys is full', () => {
    const bound = new WindowedBound(1, 1, 2);
    expect(bound.take('a', 0).allowed).toBe(true);
    expect(bound.take('b', 0).allowed).toBe(true);
    for (let i = 0; i < 5; i += 1) expect(bound.take('c', 0).allowed).toBe(true);
    expect(bound.take('a', 0).allowed).toBe(false);
  });

  it('keeps the most recently used entries up to its capacity', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.size]).toEqual([1, undefined, 3, 2]);
  });
});
