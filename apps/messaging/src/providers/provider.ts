import {
  CHANNEL_PROVIDERS,
  CHANNEL_TYPES,
  type ChannelProvider,
  type ChannelType,
  type FailureCode,
} from '@cms/contracts';

export { CHANNEL_TYPES };
export type { ChannelType, FailureCode };

/** The providers a channel connects to: the contract's list. */
export const PROVIDER_NAMES = CHANNEL_PROVIDERS;
export type ProviderName = ChannelProvider;

/** Which channel types each provider serves (extensions §9, the providers table). */
export const PROVIDER_CHANNEL_TYPES: Record<ProviderName, readonly ChannelType[]> = {
  sandbox: CHANNEL_TYPES,
  twilio: ['sms', 'rcs'],
  meta: ['whatsapp', 'messenger', 'instagram'],
  telegram: ['telegram'],
  smtp: ['email'],
  web_push: ['browser_push'],
};

/** A channel as an adapter sees it: its credentials already unsealed. */
export interface ChannelConnection {
  id: string;
  type: ChannelType;
  provider: ProviderName;
  credentials: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

export interface PushSubscriptionKeys {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface OutboundMessage {
  messageId: string;
  channelType: ChannelType;
  /** Phone number (E.164), email address, or the contact's linked id on the channel. */
  recipient: string;
  body: string;
  subject?: string;
  html?: string;
  /** An approved WhatsApp template, its parameters already rendered. */
  providerTemplate?: { name: string; language: string; parameters: string[] };
  pushSubscription?: PushSubscriptionKeys;
  /** The channel's callback URL: where the provider reports statuses. */
  callbackUrl: string;
}

export type SendResult =
  | { outcome: 'sent'; providerMessageId: string }
  | {
      outcome: 'failed';
      code: FailureCode;
      /** The provider's own code (an error code, an HTTP or SMTP status), null when it gave none. */
      providerCode: string | null;
      detail: string;
      /** From the provider's Retry-After or retry_after, on `rate_limited`. */
      retryAfterMs?: number;
    };

export type SendFailure = Extract<SendResult, { outcome: 'failed' }>;

/** A request to `/webhook/provider/<token>` as the gateway received it. */
export interface CallbackRequest {
  method: string;
  query: Record<string, string>;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The raw body, byte for byte: signatures are computed over it. */
  body: Buffer;
  /** The full public callback URL the provider called (Twilio signs it). */
  url: string;
}

export type CallbackVerdict =
  { ok: true } | { ok: false; status: 401 | 403; reason: string } | { handshake: string };

export type DeliveryStatus = 'sent' | 'delivered' | 'read' | 'failed';

export type CallbackEvent =
  | {
      kind: 'status';
      providerMessageId: string;
      status: DeliveryStatus;
      /** ISO 8601, when the provider gave the time. */
      at?: string;
      failure?: { code: FailureCode; providerCode: string | null };
    }
  | { kind: 'inbound'; from: string; text: string; providerMessageId: string; at?: string }
  | { kind: 'opt_out' | 'complaint' | 'bounce'; address: string; providerCode?: string };

export interface ProviderAdapter {
  readonly provider: ProviderName;
  send(channel: ChannelConnection, message: OutboundMessage): Promise<SendResult>;
  verifyCallback(channel: ChannelConnection, request: CallbackRequest): CallbackVerdict;
  parseCallback(
    channel: Pick<ChannelConnection, 'type'>,
    request: { contentType: string; body: Buffer },
  ): CallbackEvent[];
}

/**
 * Refuses an address outside the public internet (throws, saying why): what the service's SSRF policy
 * (the rules of webhook endpoints, with WEBHOOK_ALLOW_NETWORKS) says of push endpoints, which come from
 * browsers, and of SMTP hosts, which come from customers.
 */
export type AssertPublicEndpoint = (url: string) => void | Promise<void>;

/** One missing credential, pointed at as the API's 422 answers it. */
export interface CredentialProblem {
  pointer: string;
  detail: string;
}

const META_ACCOUNT_FIELD: Partial<Record<ChannelType, string>> = {
  whatsapp: 'phone_number_id',
  messenger: 'page_id',
  instagram: 'instagram_account_id',
};

/** Credentials that must all be given; a list inside names alternatives of which one is enough. */
function requiredFields(provider: ProviderName, type: ChannelType): (string | string[])[] {
  switch (provider) {
    case 'sandbox':
      return [];
    case 'twilio':
      return ['account_sid', 'auth_token', ['from', 'messaging_service_sid']];
    case 'meta': {
      const account = META_ACCOUNT_FIELD[type];
      return ['access_token', 'app_secret', 'verify_token', ...(account !== undefined ? [account] : [])];
    }
    case 'telegram':
      return ['bot_token', 'secret_token'];
    case 'smtp':
      return ['host', 'port', 'from'];
    case 'web_push':
      return ['vapid_public_key', 'vapid_private_key', 'subject'];
  }
}

/** What the provider itself would refuse in a credential that is given. */
const FORMATS: Partial<
  Record<ProviderName, Record<string, { valid: (value: unknown) => boolean; detail: string }>>
> = {
  smtp: {
    port: {
      valid: (value) => Number.isInteger(Number(value)) && Number(value) > 0 && Number(value) < 65536,
      detail: 'must be a TCP port (1-65535)',
    },
  },
  telegram: {
    // Telegram's setWebhook takes 1-256 characters A-Z, a-z, 0-9, _ and -.
    secret_token: {
      valid: (value) => typeof value === 'string' && /^[A-Za-z0-9_-]{1,256}$/.test(value),
      detail: 'must be 1-256 characters A-Z, a-z, 0-9, _ or -',
    },
  },
};

function given(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() !== '';
  if (typeof value === 'number') return Number.isFinite(value);
  return false;
}

/**
 * What is missing for `provider` to serve a channel of `type` with these credentials: one problem per
 * missing credential (pointer `/data/attributes/credentials/<name>`), or one for a type the provider
 * does not serve (pointer `/data/attributes/provider`). Empty when the channel can be created.
 */
export function requiredCredentials(
  provider: ProviderName,
  type: ChannelType,
  credentials: Record<string, unknown> = {},
): CredentialProblem[] {
  if (!PROVIDER_CHANNEL_TYPES[provider].includes(type)) {
    return [
      {
        pointer: '/data/attributes/provider',
        detail: `provider ${provider} serves ${PROVIDER_CHANNEL_TYPES[provider].join(', ')}, not ${type}`,
      },
    ];
  }
  const problems: CredentialProblem[] = [];
  for (const field of requiredFields(provider, type)) {
    const alternatives = Array.isArray(field) ? field : [field];
    if (alternatives.some((name) => given(credentials[name]))) continue;
    problems.push({
      pointer: `/data/attributes/credentials/${alternatives[0]}`,
      detail:
        alternatives.length === 1
          ? `credentials.${alternatives[0]} is required for provider ${provider}`
          : `one of ${alternatives.map((name) => `credentials.${name}`).join(' or ')} is required for provider ${provider}`,
    });
  }
  for (const [name, rule] of Object.entries(FORMATS[provider] ?? {})) {
    const value = credentials[name];
    if (given(value) && !rule.valid(value)) {
      problems.push({
        pointer: `/data/attributes/credentials/${name}`,
        detail: `credentials.${name} ${rule.detail}`,
      });
    }
  }
  return problems;
}

/** A credential as text: what the adapters send. Creation has checked it is there. */
export function credential(channel: ChannelConnection, name: string): string {
  const value = channel.credentials[name];
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return '';
}
