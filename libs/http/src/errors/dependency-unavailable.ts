/** Socket errors: the other end is not there (restarting, unreachable) or went away mid-request. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  // PostgreSQL: too_many_connections, admin_shutdown, crash_shutdown, cannot_connect_now.
  '53300',
  '57P01',
  '57P02',
  '57P03',
]);

/** Said in messages only, by node-postgres, PostgreSQL and ioredis. */
const UNREACHABLE_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /terminating connection due to administrator command/i,
  /enableOfflineQueue options is false/i,
  /Connection is closed/i,
];

/**
 * True when an error says that something the request needs (Postgres, Redis, another service) cannot
 * be reached right now, rather than that the request or the code is wrong. Such a request may well
 * succeed in a moment, so it is answered 503 with Retry-After, not 500. Looks through `cause` and
 * TypeORM's `driverError`.
 */
export function isDependencyUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth += 1) {
    const candidate = current as {
      code?: unknown;
      message?: unknown;
      driverError?: unknown;
      cause?: unknown;
    };
    const { code, message } = candidate;
    // SQLSTATE class 08: connection exceptions.
    if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)))
      return true;
    if (typeof message === 'string' && UNREACHABLE_MESSAGES.some((pattern) => pattern.test(message)))
      return true;
    current = candidate.driverError ?? candidate.cause;
  }
  return false;
}
