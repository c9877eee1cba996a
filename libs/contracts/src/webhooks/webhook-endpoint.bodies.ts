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

/**
 * Why a URL cannot be a webhook endpoint on its face, or undefined when it can: an absolute `https:`
 * URL with a host and no user name or password. Whether its host may be delivered to (public
 * addresses only) is decided by the webhook-dispatch service, at creation for IP literals and at every
 * delivery for names.
 */
export function webhookUrlProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return 'url must be an https URL';
  if (value.length > MAX_WEBHOOK_URL_LENGTH)
    return `url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'url must be an absolute https URL';
  }
  if (url.protocol !== 'https:') return 'url must use https';
  if (url.hostname === '') return 'url must name a host';
  if (url.username !== '' || url.password !== '') return 'url must not carry a user name or password';
  return undefined;
}

/** An absolute https URL without credentials (see webhookUrlProblem). */
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
