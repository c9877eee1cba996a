import { CONTACTS_REQUEST_SCHEMAS, type ContactsRequestPayloads } from '../contacts/contacts.record-types';
import { createEnvelope, type EnvelopeInit } from '../envelope/create-envelope';
import type { Envelope } from '../envelope/envelope';
import { GATEWAY_REQUEST_SCHEMAS, type GatewayRequestPayloads } from '../gateway/gateway.records';
import {
  INTEGRATION_REQUEST_SCHEMAS,
  type IntegrationRequestPayloads,
} from '../integrations/integration.records';
import type { DecodedRecord, RecordClass } from '../registry/record-type-registry';
import { WEBHOOK_REQUEST_SCHEMAS, type WebhookRequestPayloads } from '../webhooks/webhook.records';
import { MESSAGING_REQUEST_SCHEMAS, type MessagingRequestPayloads } from '../messaging/messaging.records';
import { ALERT_REQUEST_SCHEMAS, type AlertRequestPayloads } from '../messaging/alert.records';
import { SEGMENTS_REQUEST_SCHEMAS, type SegmentsRequestPayloads } from '../segments/segments.records';
import {
  AUTOMATIONS_REQUEST_SCHEMAS,
  type AutomationsRequestPayloads,
} from '../automations/automations.records';
import { BROADCASTS_REQUEST_SCHEMAS, type BroadcastsRequestPayloads } from '../broadcasts/broadcasts.records';

/**
 * The payload of every request type on cms.requests.v1: what a producer must put in `data` and what
 * a consumer's handler receives. The registry validates records with the same classes.
 */
export interface RequestPayloads
  extends
    ContactsRequestPayloads,
    WebhookRequestPayloads,
    GatewayRequestPayloads,
    IntegrationRequestPayloads,
    MessagingRequestPayloads,
    AlertRequestPayloads,
    SegmentsRequestPayloads,
    AutomationsRequestPayloads,
    BroadcastsRequestPayloads {}

export type RequestType = keyof RequestPayloads;

/** Every request type with its class, one place for code that needs them at run time. */
export const REQUEST_SCHEMAS: { readonly [K in RequestType]: RecordClass<RequestPayloads[K]> } = {
  ...CONTACTS_REQUEST_SCHEMAS,
  ...WEBHOOK_REQUEST_SCHEMAS,
  ...GATEWAY_REQUEST_SCHEMAS,
  ...INTEGRATION_REQUEST_SCHEMAS,
  ...MESSAGING_REQUEST_SCHEMAS,
  ...ALERT_REQUEST_SCHEMAS,
  ...SEGMENTS_REQUEST_SCHEMAS,
  ...AUTOMATIONS_REQUEST_SCHEMAS,
  ...BROADCASTS_REQUEST_SCHEMAS,
};

/** A decoded request record of type `T`. */
export type RequestRecord<T extends RequestType> = DecodedRecord<RequestPayloads[T]> & { type: T };

export function isRequestType(type: string): type is RequestType {
  return Object.hasOwn(REQUEST_SCHEMAS, type);
}

/**
 * The envelope of a request record: `data` must be the payload of `type`, so a producer cannot put
 * one request's body under another's type.
 */
export function requestEnvelope<T extends RequestType>(
  type: T,
  data: RequestPayloads[T],
  init: Omit<EnvelopeInit<RequestPayloads[T]>, 'type' | 'data'>,
): Envelope<RequestPayloads[T]> & { type: T } {
  return createEnvelope({ ...init, type, data }) as Envelope<RequestPayloads[T]> & { type: T };
}
