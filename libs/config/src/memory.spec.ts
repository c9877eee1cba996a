import { nodeMemoryArgs } from './memory';

describe('nodeMemoryArgs', () => {
  it('gives the old generation three quarters of the limit and 16 MiB semi-spaces', () => {
    expect(nodeMemoryArgs('512')).toEqual(['--max-old-space-size=384', '--max-semi-space-size=16']);
    expect(nodeMemoryArgs('1024')).toEqual(['--max-old-space-size=768', '--max-semi-space-size=16']);
    expect(nodeMemoryArgs('250')).toEqual(['--max-old-space-size=187', '--max-semi-space-size=16']);
  });

  it('leaves the heap to Node without a limit, or with one that is not a whole number of MiB', () => {
    for (const limit of [undefined, '', '0', '-512', '512Mi', '5.5', ' 512'])
      expect(nodeMemoryArgs(limit)).toEqual([]);
  });
});
