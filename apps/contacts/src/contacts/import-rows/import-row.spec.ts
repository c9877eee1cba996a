import { readImportRow } from './import-row';

const row = (values: { phone?: string | null; email?: string | null; name?: string | null }) =>
  readImportRow({ phone: null, email: null, name: null, ...values });

describe('readImportRow', () => {
  it('keeps the phone in E.164 and the email as written, with source import', () => {
    expect(row({ phone: ' 0044 7700 900123 ', email: ' Ada@Example.com ', name: ' Ada ' })).toEqual({
      changes: { phone: '+447700900123', email: 'Ada@Example.com', name: 'Ada', source: 'import' },
    });
    expect(row({ email: 'bob@example.com' })).toEqual({
      changes: { email: 'bob@example.com', source: 'import' },
    });
  });

  it('skips a row with neither a phone nor an email, whatever its name', () => {
    expect(row({ name: 'Nobody' })).toEqual({ reason: 'no_identifier' });
    expect(row({ phone: '  ', email: '' })).toEqual({ reason: 'no_identifier' });
  });

  it('skips a row whose phone is no number with its country code, or whose email is none', () => {
    expect(row({ phone: 'call me' })).toEqual({ reason: 'invalid_phone' });
    expect(row({ phone: '+1'.padEnd(1024, '5') })).toEqual({ reason: 'invalid_phone' });
    // Longer than the contact endpoints take a phone, even when its digits would read as a number.
    expect(row({ phone: `+1 415${' '.repeat(30)}555 0100` })).toEqual({ reason: 'invalid_phone' });
    expect(row({ email: 'not-an-email' })).toEqual({ reason: 'invalid_email' });
    expect(row({ email: `${'a'.repeat(250)}@example.com` })).toEqual({ reason: 'invalid_email' });
    expect(row({ email: 'a\u0000@example.com' })).toEqual({ reason: 'invalid_email' });
    expect(row({ email: 'a@exa\uD800mple.com' })).toEqual({ reason: 'invalid_email' });
  });

  it('skips a row for an invalid value even when its other identifier is valid, the phone first', () => {
    expect(row({ phone: '+14155550100', email: 'nope' })).toEqual({ reason: 'invalid_email' });
    expect(row({ phone: 'nope', email: 'ada@example.com' })).toEqual({ reason: 'invalid_phone' });
    expect(row({ phone: 'nope', email: 'nope' })).toEqual({ reason: 'invalid_phone' });
  });

  it('keeps a name up to what a contact name holds', () => {
    const reading = row({ email: 'ada@example.com', name: 'n'.repeat(1000) });
    expect('changes' in reading && reading.changes.name).toBe('n'.repeat(255));
  });

  it('makes a name Postgres could not hold storable', () => {
    expect(row({ email: 'ada@example.com', name: 'A\u0000da \uD800' })).toEqual({
      changes: { email: 'ada@example.com', name: 'A\uFFFDda \uFFFD', source: 'import' },
    });
  });
});
