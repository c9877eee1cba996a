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
      if (TRANSIENT_CODES.has(candidate.code) || candidate.code.startsWith('08')) return true;
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
