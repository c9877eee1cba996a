import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  ValidateBy,
  ValidateIf,
  type ValidationOptions,
} from 'class-validator';

import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhook-event-types';

export const MAX_WEBHOOK_URL_LENGTH = 2048;
export const MAX_WEBHOOK_DESCRIPTION_LENGTH = 1000;

/** White space, control characters and backslashes: the URL parser drops or rewrites them silently. */
const UNSAFE_CHARACTERS = /[\s\p{Cc}\\]/u;
/** `https://` and the first character of a host: not `https:///x`, `https:/x` or `https:x`. */
const HTTPS_WITH_AUTHORITY = /^https:\/\/[^/?#]/i;
/** A DNS name as the URL parser leaves it (lower case, IDNs as punycode): labels of 1–63 characters. */
const HOST_NAME =
  /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;
const MAX_HOST_NAME_LENGTH = 253;

/**
 * Why a URL cannot be a webhook endpoint on its face, or undefined when it can: an absolute `https:`
 * URL, exactly as written (no white space or control characters the parser would drop, no backslash
 * it would read as a slash), with a host (a DNS name or an IP address) and no user information, not
 * even an empty one. Whether its host may be delivered to (public addresses only) is decided by the
 * webhook-dispatch service, at creation for IP literals and at every delivery for names.
 */
export function webhookUrlProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return 'url must be an https URL';
  if (value.length > MAX_WEBHOOK_URL_LENGTH)
    return `url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  if (UNSAFE_CHARACTERS.test(value)) {
    return 'url must not contain white space, control characters or backslashes';
  }
  if (!HTTPS_WITH_AUTHORITY.test(value))
    return 'url must be an absolute https URL with a host (https://host/…)';
  const authority = value.slice('https://'.length).split(/[/?#]/, 1)[0]!;
  if (authority.includes('@')) return 'url must not carry a user name or password';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'url must be an absolute https URL';
  }
  if (url.protocol !== 'https:') return 'url must use https';
  if (!isHost(url.hostname)) return 'url must name a host';
  return undefined;
}

/** A bracketed IPv6 address, or a name (IPv4 addresses, canonicalised by the parser, are names here). */
function isHost(hostname: string): boolean {
  if (hostname.startsWith('[')) return hostname.endsWith(']');
  return hostname.length > 0 && hostname.length <= MAX_HOST_NAME_LENGTH && HOST_NAME.test(hostname);
}

/** An absolute https URL with a host and without credentials (see webhookUrlProblem). */
export function IsWebhookUrl(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isWebhookUrl',
      validator: {
        validate: (value: unknown) => webhookUrlProblem(value) === undefined,
        defaultMessage: (args) => webhookUrlProblem(args?.value) ?? 'url must be an https URL',
      },
    },
    options,
  );
}

/** Optional, but not null when present: for fields that cannot be cleared. */
function IsOptionalNotNull(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}

const EVENT_TYPES_MESSAGE = `each event type must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`;

/** `POST /api/v1/webhook-endpoints`. */
export class CreateWebhookEndpointBody {
  @IsWebhookUrl()
  url!: string;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_WEBHOOK_DESCRIPTION_LENGTH)
  description?: string | null;

  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: EVENT_TYPES_MESSAGE })
  event_types!: WebhookEventType[];
}

/** `PATCH /api/v1/webhook-endpoints/{id}`: every field optional; a null description clears it. */
export class UpdateWebhookEndpointBody {
  @IsOptionalNotNull()
  @IsWebhookUrl()
  url?: string;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_WEBHOOK_DESCRIPTION_LENGTH)
  description?: string | null;

  @IsOptionalNotNull()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length)
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: EVENT_TYPES_MESSAGE })
  event_types?: WebhookEventType[];

  /** true switches a switched-off endpoint back on (and resets its failure count); false switches it off. */
  @IsOptionalNotNull()
  @IsBoolean()
  enabled?: boolean;
}
