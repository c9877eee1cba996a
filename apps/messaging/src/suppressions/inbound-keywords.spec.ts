import { keywordMetadataProblems, keywordOf, replyTo } from './inbound-keywords';

describe('inbound keywords', () => {
  it('reads each default opt-out keyword as the whole text, trimmed, in any case', () => {
    for (const word of ['STOP', 'stopall', ' Unsubscribe ', 'cancel', 'END', 'quit', 'Revoke', 'optout\n']) {
      expect(keywordOf(word, {})).toBe('opt_out');
    }
  });

  it('reads the default opt-in keywords', () => {
    for (const word of ['START', 'unstop', ' yes ']) expect(keywordOf(word, {})).toBe('opt_in');
  });

  it('reads nothing into a text that only contains a keyword', () => {
    for (const text of ['please stop', 'STOP!', 'stop it', 'yes please', '', '   ', 'S T O P']) {
      expect(keywordOf(text, {})).toBeNull();
    }
  });

  it("replaces each default list by the channel's own, one list at a time", () => {
    const metadata = { opt_out_keywords: ['Alto', ' baja '] };
    expect(keywordOf('alto', metadata)).toBe('opt_out');
    expect(keywordOf('BAJA', metadata)).toBe('opt_out');
    expect(keywordOf('STOP', metadata)).toBeNull();
    expect(keywordOf('START', metadata)).toBe('opt_in');
    expect(keywordOf('START', { opt_in_keywords: ['ALTA'] })).toBeNull();
    expect(keywordOf('stop', { opt_in_keywords: ['ALTA'] })).toBe('opt_out');
  });

  it('takes a word on both lists as an opt-out', () => {
    expect(keywordOf('yes', { opt_out_keywords: ['YES'] })).toBe('opt_out');
  });

  it('keeps the defaults when the stored list is not a list of strings', () => {
    expect(keywordOf('STOP', { opt_out_keywords: 'ALTO' })).toBe('opt_out');
  });

  it('answers the confirmation text the channel sets for a keyword', () => {
    const metadata = { opt_out_reply: 'You will get no more messages.', opt_in_reply: ' ' };
    expect(replyTo('opt_out', metadata)).toBe('You will get no more messages.');
    expect(replyTo('opt_in', metadata)).toBeNull();
    expect(replyTo('opt_in', {})).toBeNull();
  });
});

describe('keyword metadata rules', () => {
  const base = '/data/attributes/metadata';

  it('accepts lists of short non-blank strings, replies, absent and null members', () => {
    expect(
      keywordMetadataProblems({
        opt_out_keywords: ['ALTO'],
        opt_in_keywords: null,
        opt_out_reply: 'Bye',
        other: 5,
      }),
    ).toEqual([]);
  });

  it('points at a list that is not an array and at each bad keyword', () => {
    expect(keywordMetadataProblems({ opt_out_keywords: 'STOP' })).toEqual([
      { pointer: `${base}/opt_out_keywords`, detail: 'opt_out_keywords must be an array of strings' },
    ]);
    const pointers = keywordMetadataProblems({ opt_in_keywords: ['GO', 3, '  ', 'x'.repeat(65)] }).map(
      (problem) => problem.pointer,
    );
    expect(pointers).toEqual([1, 2, 3].map((index) => `${base}/opt_in_keywords/${index}`));
  });

  it('refuses too many keywords, and a reply that is not a non-blank string of at most 1600 characters', () => {
    expect(
      keywordMetadataProblems({ opt_out_keywords: Array.from({ length: 51 }, (_, i) => `W${i}`) }),
    ).toEqual([expect.objectContaining({ pointer: `${base}/opt_out_keywords` })]);
    expect(
      keywordMetadataProblems({ opt_out_reply: 7, opt_in_reply: 'x'.repeat(1601) }).map((p) => p.pointer),
    ).toEqual([`${base}/opt_out_reply`, `${base}/opt_in_reply`]);
  });
});
