/**
 * What a number condition's value means, for both engines of this service that evaluate filters (the
 * in-memory index and the SQL compiled for Postgres), and the patterns Postgres checks date strings
 * with. The rules every filter engine shares (dates, relative windows, text and phone operands,
 * custom-field paths) are in @cms/contracts (filter-operands).
 */

/** Numbers between `low` and `high`, each end included or not (either may be infinite). */
export interface NumberRange {
  low: number;
  lowIncluded: boolean;
  high: number;
  highIncluded: boolean;
}

/** The same shapes dataTime() (@cms/contracts) accepts, for Postgres (`~`); the real-day check is made apart. */
export const SQL_DAY_PATTERN = '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$';
export const SQL_TIME_PATTERN =
  '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]{1,9})?)?(Z|[+-](0[0-9]|1[0-4]):[0-5][0-9])$';

export function numberComparison(operator: 'gt' | 'gte' | 'lt' | 'lte', value: number): NumberRange {
  const below = { low: Number.NEGATIVE_INFINITY, lowIncluded: false };
  const above = { high: Number.POSITIVE_INFINITY, highIncluded: false };
  switch (operator) {
    case 'gt':
      return { low: value, lowIncluded: false, ...above };
    case 'gte':
      return { low: value, lowIncluded: true, ...above };
    case 'lt':
      return { ...below, high: value, highIncluded: false };
    case 'lte':
      return { ...below, high: value, highIncluded: true };
  }
}

export function numberBetween(low: number, high: number): NumberRange {
  return { low, lowIncluded: true, high, highIncluded: true };
}

export function inNumberRange(value: number, range: NumberRange): boolean {
  return (
    (range.lowIncluded ? value >= range.low : value > range.low) &&
    (range.highIncluded ? value <= range.high : value < range.high)
  );
}

/**
 * An address of the suppression list in the form the index keeps the channel type's identifier:
 * phone numbers (E.164 from the messaging service) and e-mail addresses in lower case, as the
 * phone and email columns keep theirs; linked channel ids as sent, trimmed.
 */
export function suppressionAddress(channel: string, address: string): string {
  const text = address.trim();
  return channel === 'telegram' ||
    channel === 'messenger' ||
    channel === 'instagram' ||
    channel === 'browser_push'
    ? text
    : text.toLowerCase();
}
