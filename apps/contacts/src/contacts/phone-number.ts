import { toE164 } from '@cms/contracts';

export { toE164 };

/** Events accept any format: the E.164 form when there is one, the number as sent otherwise. */
export function eventPhone(raw: string): string {
  return toE164(raw) ?? raw.trim();
}
