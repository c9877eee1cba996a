import type { Schema } from '../../api';

export type ChannelType = Schema<'Channel'>['type'];
export type Provider = Schema<'Channel'>['provider'];

export const CHANNEL_TYPES: readonly ChannelType[] = [
  'whatsapp',
  'sms',
  'email',
  'rcs',
  'telegram',
  'messenger',
  'instagram',
  'browser_push',
];

export const PROVIDERS: readonly Provider[] = ['sandbox', 'twilio', 'meta', 'telegram', 'smtp', 'web_push'];

/** The channel types each provider serves (extensions §9). */
export const PROVIDER_TYPES: Record<Provider, readonly ChannelType[]> = {
  sandbox: CHANNEL_TYPES,
  twilio: ['sms', 'rcs'],
  meta: ['whatsapp', 'messenger', 'instagram'],
  telegram: ['telegram'],
  smtp: ['email'],
  web_push: ['browser_push'],
};

export interface CredentialField {
  key: string;
  label: string;
  optional?: boolean;
  secret?: boolean;
  kind?: 'text' | 'number' | 'boolean';
  hint?: string;
}

/** The credentials a provider needs for a channel type (extensions §9, the providers table). */
export function credentialFields(provider: Provider, type: ChannelType): CredentialField[] {
  switch (provider) {
    case 'twilio':
      return [
        { key: 'account_sid', label: 'Account SID' },
        { key: 'auth_token', label: 'Auth token', secret: true },
        { key: 'from', label: 'From', optional: true, hint: 'Give From or Messaging service SID.' },
        { key: 'messaging_service_sid', label: 'Messaging service SID', optional: true },
      ];
    case 'meta': {
      const id: CredentialField =
        type === 'messenger'
          ? { key: 'page_id', label: 'Page ID' }
          : type === 'instagram'
            ? { key: 'instagram_account_id', label: 'Instagram account ID' }
            : { key: 'phone_number_id', label: 'Phone number ID' };
      return [
        { key: 'access_token', label: 'Access token', secret: true },
        { key: 'app_secret', label: 'App secret', secret: true },
        { key: 'verify_token', label: 'Verify token', secret: true },
        id,
      ];
    }
    case 'telegram':
      return [
        { key: 'bot_token', label: 'Bot token', secret: true },
        { key: 'secret_token', label: 'Secret token', secret: true },
      ];
    case 'smtp':
      return [
        { key: 'host', label: 'Host' },
        { key: 'port', label: 'Port', kind: 'number' },
        { key: 'from', label: 'From' },
        { key: 'username', label: 'Username', optional: true },
        { key: 'password', label: 'Password', optional: true, secret: true },
        { key: 'secure', label: 'Secure (TLS)', optional: true, kind: 'boolean' },
      ];
    case 'web_push':
      return [
        { key: 'vapid_public_key', label: 'VAPID public key' },
        { key: 'vapid_private_key', label: 'VAPID private key', secret: true },
        { key: 'subject', label: 'Subject', hint: 'A mailto: or https: address.' },
      ];
    case 'sandbox':
      return [];
  }
}

/** The credentials typed into the form, as the API takes them (blank fields left out). */
export function credentialsBody(
  fields: readonly CredentialField[],
  values: Record<string, string>,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.key] ?? '';
    if (value === '') continue;
    if (field.kind === 'number') body[field.key] = Number.isFinite(Number(value)) ? Number(value) : value;
    else if (field.kind === 'boolean') body[field.key] = value === 'true';
    else body[field.key] = value;
  }
  return body;
}
