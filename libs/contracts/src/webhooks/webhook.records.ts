import {
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  Min,
} from 'class-validator';

import type { RecordTypeDefinition } from '../registry/record-type-registry';
import { firstVersions, type PayloadsOf } from '../requests/request-schemas';
import { MAX_WEBHOOK_DESCRIPTION_LENGTH, MAX_WEBHOOK_URL_LENGTH } from './webhook-endpoint.bodies';
import {
  WEBHOOK_DISABLED_REASONS,
  WEBHOOK_EVENT_TYPES,
  type WebhookDisabledReason,
  type WebhookEventType,
} from './webhook-event-types';
import { SEALED_SECRET_PATTERN } from './webhook-secret';

/**
 * Requests the webhook-dispatch service decides (cms.requests.v1, key = workspace id). The gateway mints
 * `endpoint_id` and `delivery_id` (random UUIDs) and generates signing secrets, which travel only sealed
 * with SECRETS_KEY (`encryptSecret`); outcomes never carry a secret, the gateway adds the clear one it
 * generated to its answer.
 */
export const WEBHOOK_REQUEST_TYPES = {
  endpointCreate: 'webhook-endpoint.create.requested',
  endpointUpdate: 'webhook-endpoint.update.requested',
  endpointDelete: 'webhook-endpoint.delete.requested',
  endpointRollSecret: 'webhook-endpoint.roll-secret.requested',
  endpointTest: 'webhook-endpoint.test.requested',
  deliveryRedeliver: 'webhook-delivery.redeliver.requested',
  /**
   * Not from a client: the delivery worker appends it (through its outbox) when an endpoint's deliveries
   * failed 25 times in a row, so the switch-off is in the log, ordered with the endpoint's other requests.
   */
  endpointSwitchOff: 'webhook-endpoint.switch-off.requested',
} as const;

/** Facts about endpoints (cms.webhooks.v1, key = workspace id). Never a secret, sealed or not. */
export const WEBHOOK_FACT_TYPES = {
  endpointCreated: 'webhook-endpoint.created',
  endpointUpdated: 'webhook-endpoint.updated',
  endpointDeleted: 'webhook-endpoint.deleted',
  endpointSecretRolled: 'webhook-endpoint.secret-rolled',
  /** 25 failed deliveries in a row: decided from the delivery worker's switch-off request. */
  endpointSwitchedOff: 'webhook-endpoint.switched-off',
} as const;

// --- requests ---------------------------------------------------------------------------------
// The URL is only required to be text here: whether it may be an endpoint (https, a public address) is
// the service's decision, answered with a 422 pointing at `url`, not a dead letter.

export class WebhookEndpointCreateRequestedV1 {
  @IsUUID()
  endpoint_id!: string;

  @IsString()
  @MaxLength(MAX_WEBHOOK_URL_LENGTH)
  url!: string;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_WEBHOOK_DESCRIPTION_LENGTH)
  description?: string | null;

  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true })
  event_types!: WebhookEventType[];

  @Matches(SEALED_SECRET_PATTERN)
  secret_sealed!: string;
}

export class WebhookEndpointUpdateRequestedV1 {
  /** From the path. */
  @IsUUID()
  endpoint_id!: string;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_WEBHOOK_URL_LENGTH)
  url?: string;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_WEBHOOK_DESCRIPTION_LENGTH)
  description?: string | null;

  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true })
  event_types?: WebhookEventType[];

  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

export class WebhookEndpointDeleteRequestedV1 {
  @IsUUID()
  endpoint_id!: string;
}

export class WebhookEndpointRollSecretRequestedV1 {
  @IsUUID()
  endpoint_id!: string;

  @Matches(SEALED_SECRET_PATTERN)
  secret_sealed!: string;
}

export class WebhookEndpointTestRequestedV1 {
  @IsUUID()
  endpoint_id!: string;

  /** Minted by the gateway: the id of the test delivery (and of its envelope). */
  @IsUUID()
  delivery_id!: string;
}

export class WebhookDeliveryRedeliverRequestedV1 {
  @IsUUID()
  endpoint_id!: string;

  @IsUUID()
  delivery_id!: string;
}

/** Appended by the delivery worker with the failure that made 25 in a row; its time is that moment. */
export class WebhookEndpointSwitchOffRequestedV1 {
  @IsUUID()
  endpoint_id!: string;

  /** The delivery whose failure made it 25, and its last attempt: which failure switched the endpoint off. */
  @IsUUID()
  delivery_id!: string;

  @IsInt()
  @Min(1)
  attempt!: number;

  @IsInt()
  @Min(1)
  consecutive_failures!: number;
}

// --- facts ------------------------------------------------------------------------------------

/** webhook-endpoint.created and webhook-endpoint.updated: the endpoint after the change. */
export class WebhookEndpointFactV1 {
  @IsUUID()
  endpoint_id!: string;

  @IsString()
  url!: string;

  @IsOptional()
  @IsString()
  description!: string | null;

  @IsArray()
  @ArrayNotEmpty()
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true })
  event_types!: WebhookEventType[];

  @IsBoolean()
  enabled!: boolean;

  @IsOptional()
  @IsIn(WEBHOOK_DISABLED_REASONS)
  disabled_reason!: WebhookDisabledReason | null;

  @IsISO8601()
  at!: string;
}

export class WebhookEndpointDeletedV1 {
  @IsUUID()
  endpoint_id!: string;

  @IsISO8601()
  at!: string;
}

export class WebhookEndpointSecretRolledV1 {
  @IsUUID()
  endpoint_id!: string;

  /** Until when deliveries also carry a signature made with the previous secret. */
  @IsISO8601()
  previous_secret_valid_until!: string;

  @IsISO8601()
  at!: string;
}

export class WebhookEndpointSwitchedOffV1 {
  @IsUUID()
  endpoint_id!: string;

  @IsIn(WEBHOOK_DISABLED_REASONS)
  reason!: WebhookDisabledReason;

  @IsInt()
  @Min(0)
  consecutive_failures!: number;

  @IsISO8601()
  at!: string;
}

/** The payload class of every request webhook-dispatch decides. */
export const WEBHOOK_REQUEST_SCHEMAS = {
  [WEBHOOK_REQUEST_TYPES.endpointCreate]: WebhookEndpointCreateRequestedV1,
  [WEBHOOK_REQUEST_TYPES.endpointUpdate]: WebhookEndpointUpdateRequestedV1,
  [WEBHOOK_REQUEST_TYPES.endpointDelete]: WebhookEndpointDeleteRequestedV1,
  [WEBHOOK_REQUEST_TYPES.endpointRollSecret]: WebhookEndpointRollSecretRequestedV1,
  [WEBHOOK_REQUEST_TYPES.endpointTest]: WebhookEndpointTestRequestedV1,
  [WEBHOOK_REQUEST_TYPES.deliveryRedeliver]: WebhookDeliveryRedeliverRequestedV1,
  [WEBHOOK_REQUEST_TYPES.endpointSwitchOff]: WebhookEndpointSwitchOffRequestedV1,
} as const;

export type WebhookRequestPayloads = PayloadsOf<typeof WEBHOOK_REQUEST_SCHEMAS>;

export const WEBHOOK_RECORD_TYPES: RecordTypeDefinition[] = [
  ...firstVersions(WEBHOOK_REQUEST_SCHEMAS),
  { type: WEBHOOK_FACT_TYPES.endpointCreated, version: 1, schema: WebhookEndpointFactV1 },
  { type: WEBHOOK_FACT_TYPES.endpointUpdated, version: 1, schema: WebhookEndpointFactV1 },
  { type: WEBHOOK_FACT_TYPES.endpointDeleted, version: 1, schema: WebhookEndpointDeletedV1 },
  { type: WEBHOOK_FACT_TYPES.endpointSecretRolled, version: 1, schema: WebhookEndpointSecretRolledV1 },
  { type: WEBHOOK_FACT_TYPES.endpointSwitchedOff, version: 1, schema: WebhookEndpointSwitchedOffV1 },
];
