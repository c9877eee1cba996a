import { isDependencyUnavailable } from './dependency-unavailable';

function withCode(code: string, message = 'failed'): Error {
  return Object.assign(new Error(message), { code });
}

describe('isDependencyUnavailable', () => {
  it.each([
    [
      'a refused connection (Postgres stopped)',
      withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
    ],
    ['a reset connection', withCode('ECONNRESET')],
    [
      'Postgres shutting down (57P01)',
      withCode('57P01', 'terminating connection due to administrator command'),
    ],
    ['Postgres starting up (57P03)', withCode('57P03', 'the database system is starting up')],
    ['a connection exception (SQLSTATE class 08)', withCode('08006')],
    ['node-postgres losing its connection', new Error('Connection terminated unexpectedly')],
    [
      'node-postgres waiting too long for a pool connection',
      new Error('timeout exceeded when trying to connect'),
    ],
  ])('is true for %s', (_, error) => {
    expect(isDependencyUnavailable(error)).toBe(true);
  });

  it('looks through TypeORM driverError and Error cause', () => {
    const queryFailed = Object.assign(new Error('query failed'), { driverError: withCode('57P01') });
    expect(isDependencyUnavailable(queryFailed)).toBe(true);
    expect(isDependencyUnavailable(new Error('lookup failed', { cause: withCode('ECONNREFUSED') }))).toBe(
      true,
    );
  });

  it.each([
    ['a programming error', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a unique violation (23505)', withCode('23505', 'duplicate key value violates unique constraint')],
    ['a syntax error in SQL (42601)', withCode('42601')],
    ['a value that is not an object', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('is false for %s', (_, error) => {
    expect(isDependencyUnavailable(error)).toBe(false);
  });
});
