/** Thrown by a handler for a record that can never be applied, whatever happens around it. */
export class PoisonRecordError extends Error {
  constructor(
    message: string,
    readonly reason = 'rejected',
  ) {
    super(message);
    this.name = 'PoisonRecordError';
  }
}

const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  '53300', // too_many_connections
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  '55P03', // lock_not_available
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '57014', // query_canceled (statement timeout)
]);

const TRANSIENT_MESSAGES = [
  /connection terminated/i,
  /connection error/i,
  /timeout exceeded when trying to connect/i,
  /terminating connection/i,
  /Client has encountered a connection error/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /Connection is not established/i,
];

/**
 * SQLSTATE classes of the infrastructure, whatever the exact code: connection exceptions (08),
 * transaction rollbacks (40: serialization failures, deadlocks), insufficient resources (53: disk
 * full, out of memory, too many connections), operator intervention (57: shutdown, cancel) and system
 * errors (58: I/O). The same statement succeeds once the database is back.
 */
const TRANSIENT_CLASSES = ['08', '40', '53', '57', '58'];

/**
 * Transient errors are retried forever without moving on: the database or the network will come
 * back, and skipping would lose the record. Everything else may be a bug in the record or in the
 * code; it is retried a few times and then dead-lettered, so it cannot block its partition.
 */
export function isTransientError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth += 1) {
    if (typeof current !== 'object' || current === null) return false;
    const candidate = current as {
      code?: unknown;
      message?: unknown;
      driverError?: unknown;
      cause?: unknown;
    };
    if (typeof candidate.code === 'string') {
      if (TRANSIENT_CODES.has(candidate.code)) return true;
      if (/^[0-9A-Z]{5}$/.test(candidate.code) && TRANSIENT_CLASSES.includes(candidate.code.slice(0, 2))) {
        return true;
      }
    }
    if (
      typeof candidate.message === 'string' &&
      TRANSIENT_MESSAGES.some((pattern) => pattern.test(candidate.message as string))
    ) {
      return true;
    }
    current = candidate.driverError ?? candidate.cause;
  }
  return false;
}

/**
 * SQLSTATE classes a record's content causes, so applying the same record fails the same way every
 * time: data exceptions (22: 22021 invalid byte sequence, 22P05 NUL in text or jsonb, 22003 numeric
 * out of range, 22P02 invalid text representation, 22007/22008 bad or out-of-range datetime, 22001
 * string too long) and program limits (54: statement too complex, too many arguments or columns).
 */
const DETERMINISTIC_CLASSES = ['22', '54'];

/**
 * Errors a record causes by what it holds, which no retry can cure: a refusal by the handler
 * (PoisonRecordError, RecordTooLargeError), a database error of a class above, or a RangeError (a
 * value too deep or too large for the runtime: call stack exceeded, invalid string length). The
 * consumer dead-letters the record at once. Integrity violations (23) are not among them: a unique
 * violation can come from a concurrent writer and pass on the next try.
 */
export function isDeterministicError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth += 1) {
    if (typeof current !== 'object' || current === null) return false;
    if (current instanceof PoisonRecordError || current instanceof RangeError) return true;
    const candidate = current as { code?: unknown; driverError?: unknown; cause?: unknown };
    if (
      typeof candidate.code === 'string' &&
      /^[0-9A-Z]{5}$/.test(candidate.code) &&
      DETERMINISTIC_CLASSES.includes(candidate.code.slice(0, 2))
    ) {
      return true;
    }
    current = candidate.driverError ?? candidate.cause;
  }
  return false;
}
