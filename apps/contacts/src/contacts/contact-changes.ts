import { CONSENT_CHANNELS, type ConsentChannel, type MarketingConsentInput } from '@cms/contracts';

import type { ValueTimes } from './contact.entity';

export const SCALAR_FIELDS = ['name', 'phone', 'email', 'external_id', 'source'] as const;
export type ScalarField = (typeof SCALAR_FIELDS)[number];

/** The values of a contact that writes can change, with the time each was last written. */
export interface ContactValues {
  name: string | null;
  phone: string | null;
  email: string | null;
  external_id: string | null;
  source: string | null;
  data: Record<string, unknown>;
  marketing_consent: MarketingConsentInput;
  value_times: ValueTimes;
}

/** What one write sends: a field that is absent is left as it is. */
export type ContactChanges = Partial<Record<ScalarField, string | null>> & {
  data?: Record<string, unknown>;
  marketing_consent?: MarketingConsentInput;
  /** Where the written values sit in the request body (`/data/attributes/contacts/3`), for errors. */
  pointer?: string;
};

export interface ConsentChange {
  channel: ConsentChannel;
  previous: boolean | null;
  granted: boolean;
}

export interface MergeResult {
  values: ContactValues;
  /** The fields whose values changed: `name`, `data.<key>`, `marketing_consent.<channel>`. */
  changed: string[];
  consent: ConsentChange[];
}

export const EMPTY_CONTACT: ContactValues = {
  name: null,
  phone: null,
  email: null,
  external_id: null,
  source: null,
  data: {},
  marketing_consent: {},
  value_times: {},
};

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Newer values win: each field (each custom data key, each consent channel) keeps the time it was
 * last written, and a write that happened before that time leaves it alone, whatever order the writes
 * arrive in. A write at the same time wins, so two writes of one instant end in log order. `at` is an
 * ISO 8601 UTC time with milliseconds, so times compare as strings.
 */
export function mergeContact(current: ContactValues, changes: ContactChanges, at: string): MergeResult {
  const values: ContactValues = {
    ...current,
    data: { ...current.data },
    marketing_consent: { ...current.marketing_consent },
    value_times: { ...current.value_times },
  };
  const changed: string[] = [];
  const consent: ConsentChange[] = [];
  const wins = (key: string): boolean => {
    const last = values.value_times[key];
    if (last !== undefined && last > at) return false;
    values.value_times[key] = at;
    return true;
  };

  for (const field of SCALAR_FIELDS) {
    const value = changes[field];
    if (value === undefined || !wins(field)) continue;
    if (values[field] !== value) {
      values[field] = value;
      changed.push(field);
    }
  }
  for (const [key, value] of Object.entries(changes.data ?? {})) {
    if (!wins(`data.${key}`)) continue;
    if (!Object.hasOwn(values.data, key) || !sameJson(values.data[key], value)) {
      values.data[key] = value;
      changed.push(`data.${key}`);
    }
  }
  for (const channel of CONSENT_CHANNELS) {
    const granted = changes.marketing_consent?.[channel];
    if (granted === undefined || !wins(`marketing_consent.${channel}`)) continue;
    const previous = values.marketing_consent[channel] ?? null;
    if (previous !== granted) {
      values.marketing_consent[channel] = granted;
      changed.push(`marketing_consent.${channel}`);
      consent.push({ channel, previous, granted });
    }
  }
  return { values, changed, consent };
}

/** Granted from not granted, or revoked from granted; a first "false" is recorded but flips nothing. */
export function consentFlip(change: ConsentChange): 'granted' | 'revoked' | undefined {
  if (change.granted && change.previous !== true) return 'granted';
  if (!change.granted && change.previous === true) return 'revoked';
  return undefined;
}
