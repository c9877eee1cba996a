import { JsonInput, Select, SimpleGrid, TextInput } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';

import type { Schema } from '../../api';

export type Contact = Schema<'Contact'>;
export type ChannelType = keyof Schema<'MarketingConsent'>;

export const CHANNEL_TYPES: ChannelType[] = [
  'whatsapp',
  'sms',
  'email',
  'rcs',
  'telegram',
  'messenger',
  'instagram',
  'browser_push',
];

/** The consent fields a form shows (a problem at `marketing_consent` itself is shown above the button). */
export const CONSENT_PATHS = CHANNEL_TYPES.map((type) => `marketing_consent.${type}`);

export const LINKABLE_CHANNELS: Array<keyof Schema<'ContactChannels'>> = [
  'telegram',
  'messenger',
  'instagram',
  'browser_push',
];

/** A consent choice in a form: not sent, granted (true) or withdrawn (false). */
export type ConsentChoice = 'unchanged' | 'granted' | 'withdrawn';
export type ConsentChoices = Record<ChannelType, ConsentChoice>;

export function emptyConsent(): ConsentChoices {
  return Object.fromEntries(CHANNEL_TYPES.map((type) => [type, 'unchanged'])) as ConsentChoices;
}

export function consentFrom(consent: Schema<'MarketingConsent'>): ConsentChoices {
  return Object.fromEntries(
    CHANNEL_TYPES.map((type) => [
      type,
      consent[type] === true ? 'granted' : consent[type] === false ? 'withdrawn' : 'unchanged',
    ]),
  ) as ConsentChoices;
}

/** The `marketing_consent` object of a body: only the channels given a choice. */
export function consentBody(choices: ConsentChoices): Record<string, boolean> | undefined {
  const entries = CHANNEL_TYPES.filter((type) => choices[type] !== 'unchanged').map(
    (type) => [type, choices[type] === 'granted'] as const,
  );
  return entries.length ? Object.fromEntries(entries) : undefined;
}

/** The word for a stored consent value (never colour alone). */
export function consentWord(value: boolean | null): string {
  return value === true ? 'Granted' : value === false ? 'Withdrawn' : 'Not given';
}

/** One Select per channel type: the marketing consent to send. */
export function ConsentFields({
  value,
  onChange,
  error,
}: {
  value: ConsentChoices;
  onChange(next: ConsentChoices): void;
  error(path: string): string | undefined;
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="xs">
      {CHANNEL_TYPES.map((type) => (
        <Select
          key={type}
          label={`Marketing consent: ${type}`}
          data={[
            { value: 'unchanged', label: 'Not set' },
            { value: 'granted', label: 'Granted' },
            { value: 'withdrawn', label: 'Withdrawn' },
          ]}
          value={value[type]}
          allowDeselect={false}
          onChange={(next) => onChange({ ...value, [type]: (next ?? 'unchanged') as ConsentChoice })}
          error={error(`marketing_consent.${type}`)}
        />
      ))}
    </SimpleGrid>
  );
}

/** What a contact form edits: its identifiers, the data to send (JSON text) and the consent to send. */
export interface ContactDraft {
  name: string;
  phone: string;
  email: string;
  external_id: string;
  data: string;
  consent: ConsentChoices;
}

type DraftText = 'name' | 'phone' | 'email' | 'external_id';

const DRAFT_TEXTS: Array<{ key: DraftText; label: string; type?: string }> = [
  { key: 'name', label: 'Name' },
  { key: 'phone', label: 'Phone', type: 'tel' },
  { key: 'email', label: 'Email', type: 'email' },
  { key: 'external_id', label: 'External ID' },
];

/** The fields of a contact form (create or edit), each showing the problem its pointer names. */
export function ContactFields({
  draft,
  onChange,
  error,
  dataLabel,
  requireName = false,
}: {
  draft: ContactDraft;
  onChange(next: ContactDraft): void;
  error(path: string): string | undefined;
  dataLabel: string;
  requireName?: boolean;
}) {
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        {DRAFT_TEXTS.map(({ key, label, type }) => (
          <TextInput
            key={key}
            label={label}
            type={type}
            required={key === 'name' && requireName}
            value={draft[key]}
            onChange={(event) => onChange({ ...draft, [key]: event.currentTarget.value })}
            error={error(key)}
          />
        ))}
      </SimpleGrid>
      <JsonInput
        label={dataLabel}
        autosize
        minRows={3}
        value={draft.data}
        onChange={(data) => onChange({ ...draft, data })}
        error={error('data')}
      />
      <ConsentFields
        value={draft.consent}
        onChange={(consent) => onChange({ ...draft, consent })}
        error={error}
      />
    </>
  );
}

/**
 * Mantine's field error text (red 6) is below 4.5:1 on white: inside this scope it is red 9, so a form
 * showing the API's problems keeps its contrast. Modals render outside it: give them `ERROR_CONTRAST`.
 */
export const ERROR_CONTRAST = { '--mantine-color-error': 'var(--mantine-color-red-9)' } as CSSProperties;

export function ErrorContrast({ children }: { children: ReactNode }) {
  return <div style={ERROR_CONTRAST}>{children}</div>;
}
