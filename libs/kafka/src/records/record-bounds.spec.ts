import {
  assertRecordFits,
  MAX_RECORD_BYTES,
  recordBytes,
  RecordTooLargeError,
  storableText,
  TOPIC_MAX_MESSAGE_BYTES,
} from './record-bounds';

describe('record bounds', () => {
  it('leave room for a batch framing under the topic limit', () => {
    expect(TOPIC_MAX_MESSAGE_BYTES - MAX_RECORD_BYTES).toBeGreaterThanOrEqual(1024 * 1024);
  });

  it('count a record by the UTF-8 bytes of its key, value, header names and header values', () => {
    expect(
      recordBytes({ key: 'w1', value: 'é', headers: { ce_type: 'a', multi: ['bc', Buffer.from('d')] } }),
    ).toBe(2 + 2 + 'ce_type'.length + 1 + 'multi'.length + 3);
  });

  it('refuse a record one byte over the bound, and take one at it', () => {
    const at = 'x'.repeat(MAX_RECORD_BYTES - 2);
    expect(assertRecordFits('facts', { key: 'w1', value: at })).toBe(MAX_RECORD_BYTES);
    expect(() => assertRecordFits('facts', { key: 'w1', value: `${at}x` })).toThrow(RecordTooLargeError);
  });

  it('make text storable in Postgres: NUL and lone surrogates become U+FFFD, pairs stay', () => {
    expect(storableText(`a${String.fromCharCode(0)}b\uD800c\uDC00d😀`)).toBe('a\uFFFDb\uFFFDc\uFFFDd😀');
  });
});
