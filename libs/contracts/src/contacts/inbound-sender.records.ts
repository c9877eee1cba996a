import { IsIn, IsInt, IsString, Matches, MaxLength, Min } from 'class-validator';

/** The channels whose senders are known by phone number: an unknown one becomes a contact. */
export const PHONE_SENDER_CHANNELS = ['whatsapp', 'sms', 'rcs'] as const;

/**
 * Appended by the messaging service (through its outbox) when a message arrives on a phone channel
 * from a number no contact of its view holds. Nobody waits.
 */
export const INBOUND_SENDER_REQUEST_TYPE = 'contact.inbound-sender.requested';

/**
 * An inbound message's sender, by phone: the contacts service creates the contact under `contact_id`
 * (minted by the gateway when it recorded the message) unless a contact holds the phone already, and
 * answers the messaging service with the contact the message is from (message.inbound-match.recorded).
 */
export class ContactInboundSenderRequestedV1 {
  @IsString()
  @Matches(/^msg_[0-9a-f]{32}$/)
  message_id!: string;

  @IsIn(PHONE_SENDER_CHANNELS)
  channel!: (typeof PHONE_SENDER_CHANNELS)[number];

  /** As the provider sent it. */
  @IsString()
  @MaxLength(320)
  phone!: string;

  @IsInt()
  @Min(1)
  contact_id!: number;

  /** As on ContactUpsertRequestedV1: used only for a workspace whose plan records carry no limit. */
  @IsInt()
  @Min(0)
  contact_limit!: number;
}

/** Appended to CONTACTS_REQUEST_SCHEMAS. */
export const INBOUND_SENDER_REQUEST_SCHEMAS = {
  [INBOUND_SENDER_REQUEST_TYPE]: ContactInboundSenderRequestedV1,
} as const;
