import { ValidateBy, type ValidationOptions } from 'class-validator';

// --- identifiers ------------------------------------------------------------------------------

/** Identifiers of stored resources are positive integers up to 2^53 − 1 (extensions §1). */
export const MAX_ID = Number.MAX_SAFE_INTEGER;

/**
 * Ids the gateway mints per database round trip: each `nextval` of an id sequence reserves a block of
 * this many. A request that carries reserved blocks (an import's `id_blocks`) carries their first ids.
 */
export const ID_BLOCK_SIZE = 100;

/** A JSON number that is a whole number from 1 to 2^53 − 1: never a string, a fraction or 1e300. */
export function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

/**
 * The context a rule about the items of an array gives its failures, so that each bad item is
 * reported at its own pointer (`/data/attributes/tag_ids/2`) rather than at the array's. The error
 * mapper of libs/http reads it from the failed constraint's context.
 */
export interface ItemRuleContext {
  /** The indexes of the items of `value` the rule refuses; empty when `value` is not an array. */
  failingItems(value: unknown): number[];
}

export function isItemRuleContext(context: unknown): context is ItemRuleContext {
  return (
    typeof context === 'object' &&
    context !== null &&
    typeof (context as Partial<ItemRuleContext>).failingItems === 'function'
  );
}

const ID_MESSAGE = `must be a positive integer of at most ${MAX_ID}`;

/** A positive integer up to 2^53 − 1, sent as a JSON number. */
export function IsId(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isId',
      validator: {
        validate: (value: unknown) => isId(value),
        defaultMessage: (args) => `${args?.property ?? 'id'} ${ID_MESSAGE}`,
      },
    },
    options,
  );
}

const ID_LIST_CONTEXT: ItemRuleContext = {
  failingItems: (value) =>
    Array.isArray(value) ? value.flatMap((item: unknown, index) => (isId(item) ? [] : [index])) : [],
};

/** An array whose every item is an identifier (see IsId); each bad item is reported at its index. */
export function AreIds(options?: Omit<ValidationOptions, 'each' | 'context'>): PropertyDecorator {
  return ValidateBy(
    {
      name: 'areIds',
      validator: {
        validate: (value: unknown) => Array.isArray(value) && value.every(isId),
        defaultMessage: (args) => `each of ${args?.property ?? 'the ids'} ${ID_MESSAGE}`,
      },
    },
    { ...options, context: ID_LIST_CONTEXT },
  );
}

// --- text -------------------------------------------------------------------------------------

/** A string with something besides white space: a name of only spaces would be stored as "". */
export function IsNotBlank(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isNotBlank',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && value.trim() !== '',
        defaultMessage: (args) => `${args?.property ?? 'value'} must not be empty or only white space`,
      },
    },
    options,
  );
}

// --- sizes ------------------------------------------------------------------------------------

/** A contact's and an event's custom `data` at most, as UTF-8 bytes of its JSON (extensions §1). */
export const MAX_DATA_BYTES = 64 * 1024;

/** The size of `value` as the log and the database carry it: the UTF-8 bytes of its JSON. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/** A value whose JSON is at most `bytes` bytes of UTF-8. */
export function IsJsonOfAtMost(bytes: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isJsonOfAtMost',
      constraints: [bytes],
      validator: {
        validate: (value: unknown) => jsonBytes(value) <= bytes,
        defaultMessage: (args) =>
          `${args?.property ?? 'value'} must be at most ${bytes} bytes (${bytes / 1024} KiB) as JSON`,
      },
    },
    options,
  );
}

// --- times ------------------------------------------------------------------------------------

/** How far after its receipt an event may say it happened (extensions §1): clocks differ, not more. */
export const MAX_OCCURRED_AT_AHEAD_MS = 60 * 60 * 1000;

/**
 * At most an hour after now, the time of receipt: only for bodies checked at the edge as they arrive,
 * never for records, which every consumer checks again on read (a replay reads them years later). A
 * time that cannot be read is left to the other rules.
 */
export function IsNotLaterThanAnHourAfterReceipt(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isNotLaterThanAnHourAfterReceipt',
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') return true;
          const time = Date.parse(value);
          return Number.isNaN(time) || time <= Date.now() + MAX_OCCURRED_AT_AHEAD_MS;
        },
        defaultMessage: (args) =>
          `${args?.property ?? 'occurred_at'} must be at most one hour after the time the request is received`,
      },
    },
    options,
  );
}
