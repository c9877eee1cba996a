/**
 * The `code` of a network error (ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT, …), which undici and fetch
 * may wrap in a `cause` or two: how a failed outbound call says what went wrong.
 */
export function errorCodeOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 3 && typeof current === 'object' && current !== null; depth += 1) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string') return code;
    current = cause;
  }
  return undefined;
}
