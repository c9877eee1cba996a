import { ValidateBy, ValidateIf, type ValidationOptions } from 'class-validator';

/** The channels a contact can give or withhold marketing consent on (the specification's list). */
export const CONSENT_CHANNELS = [
  'whatsapp',
  'sms',
  'email',
  'rcs',
  'telegram',
  'messenger',
  'instagram',
  'browser_push',
] as const;
export type ConsentChannel = (typeof CONSENT_CHANNELS)[number];

/** The channels a contact's own id on that channel can be linked for. */
export const LINK_CHANNELS = ['telegram', 'messenger', 'instagram', 'browser_push'] as const;
export type LinkChannel = (typeof LINK_CHANNELS)[number];

/** What a client sends: only the channels it mentions; the others stay as they are. */
export type MarketingConsentInput = Partial<Record<ConsentChannel, boolean>>;

/** What a contact shows: every channel, null where nothing was ever recorded. */
export type MarketingConsent = Record<ConsentChannel, boolean | null>;

/** The contact's id on each linkable channel, null where none is linked. */
export type ContactChannels = Record<LinkChannel, string | null>;

export function isConsentChannel(value: string): value is ConsentChannel {
  return (CONSENT_CHANNELS as readonly string[]).includes(value);
}

function consentProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object';
  for (const [channel, granted] of Object.entries(value)) {
    if (!isConsentChannel(channel)) {
      return `names an unknown channel "${channel}"; channels are ${CONSENT_CHANNELS.join(', ')}`;
    }
    if (typeof granted !== 'boolean') return `must map ${channel} to true or false`;
  }
  return undefined;
}

/** An object mapping some of the consent channels to true or false, and nothing else. */
export function IsMarketingConsent(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isMarketingConsent',
      validator: {
        validate: (value: unknown) => consentProblem(value) === undefined,
        defaultMessage: (args) => `${args?.property ?? 'marketing_consent'} ${consentProblem(args?.value)}`,
      },
    },
    options,
  );
}

/** Optional, but when present it may not be null: for fields that cannot be cleared. */
export function IsOptionalNotNull(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}
