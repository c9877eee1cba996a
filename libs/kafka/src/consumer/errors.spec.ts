import { RecordTooLargeError } from '../records/record-bounds';
import { isDeterministicError, isTransientError, PoisonRecordError } from './errors';

/** A database error as TypeORM hands it over: the driver's error, with its SQLSTATE, inside. */
function queryFailed(code: string, message = 'failed'): Error {
  return Object.assign(new Error(message), { driverError: Object.assign(new Error(message), { code }) });
}

describe('the classification of a failed record', () => {
  it.each([
    ['22021', 'invalid byte sequence for encoding "UTF8": 0x00'],
    ['22P05', 'unsupported Unicode escape sequence'],
    ['22003', 'value out of range for type bigint'],
    ['22P02', 'invalid input syntax for type bigint'],
    ['22007', 'invalid input syntax for type timestamp'],
    ['22008', 'date/time field value out of range'],
    ['54000', 'statement is too complex'],
    ['54023', 'cannot pass more than 100 arguments to a function'],
  ])('takes SQLSTATE %s (%s) for the record at fault, never for the infrastructure', (code, message) => {
    expect(isDeterministicError(queryFailed(code, message))).toBe(true);
    expect(isTransientError(queryFailed(code, message))).toBe(false);
  });

  it.each([
    ['08006', 'connection failure'],
    ['40001', 'could not serialize access'],
    ['40P01', 'deadlock detected'],
    ['53100', 'could not extend file: No space left on device'],
    ['53200', 'out of memory'],
    ['57P01', 'terminating connection due to administrator command'],
    ['58030', 'could not write to file'],
  ])('retries SQLSTATE %s (%s) for as long as it lasts', (code, message) => {
    expect(isTransientError(queryFailed(code, message))).toBe(true);
    expect(isDeterministicError(queryFailed(code, message))).toBe(false);
  });

  it('takes a refusal by the handler, a record over the bound and a runtime limit for the record at fault', () => {
    expect(isDeterministicError(new PoisonRecordError('refused'))).toBe(true);
    expect(isDeterministicError(new RecordTooLargeError('facts', 9_000_000))).toBe(true);
    expect(isDeterministicError(new RangeError('Maximum call stack size exceeded'))).toBe(true);
  });

  it('leaves a unique violation and an unknown bug to the few retries of errors it cannot place', () => {
    expect(isDeterministicError(queryFailed('23505', 'duplicate key value'))).toBe(false);
    expect(isTransientError(queryFailed('23505', 'duplicate key value'))).toBe(false);
    expect(isDeterministicError(new TypeError('cannot read properties of undefined'))).toBe(false);
  });
});
