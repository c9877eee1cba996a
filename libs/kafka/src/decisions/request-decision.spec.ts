import { PoisonRecordError } from '../consumer/errors';
import { workspaceIdOf } from './request-decision';

describe('workspaceIdOf', () => {
  it('reads every workspace id up to 2^53 − 1, all sixteen digits of the largest', () => {
    expect(workspaceIdOf({ workspaceid: '1' })).toBe(1);
    expect(workspaceIdOf({ workspaceid: '2147483648' })).toBe(2 ** 31);
    expect(workspaceIdOf({ workspaceid: String(Number.MAX_SAFE_INTEGER) })).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses anything else as a poison record', () => {
    for (const workspaceid of [
      '0',
      '-1',
      '01',
      '1e3',
      '0x10',
      ' 1',
      '9007199254740992',
      '12345678901234567',
    ]) {
      expect(() => workspaceIdOf({ workspaceid })).toThrow(PoisonRecordError);
    }
  });
});
