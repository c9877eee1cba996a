import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Min,
  ValidateNested,
} from 'class-validator';

import {
  CONSENT_CHANNELS,
  LINK_CHANNELS,
  type ConsentChannel,
  type ContactChannels,
  type LinkChannel,
  type MarketingConsent,
} from './channels';
import { LinkChannelBody, MAX_BATCH_CONTACTS, UpdateContactBody, UpsertContactBody } from './contact.bodies';

/** The sources of the consent changes a channel reports (see CONSENT_SOURCES). */
export const CHANNEL_CONSENT_SOURCES = ['keyword', 'provider'] as const;

/** Request records the contacts service decides (cms.requests.v1, key = workspace id). */
export const CONTACT_REQUEST_TYPES = {
  upsert: 'contact.upsert.requested',
  batchUpsert: 'contact.batch-upsert.requested',
  update: 'contact.update.requested',
  channelLink: 'contact.channel-link.requested',
  /** A contact-only payload of an integration's inbound webhook. */
  ingest: 'contact.ingest.requested',
  /**
   * Not from a client: the messaging service appends it (through its outbox) when a channel tells it
   * that a contact refused or accepted marketing (an opt-out word, a provider's opt-out). Nobody waits.
   */
  consentChange: 'contact.consent-change.requested',
} as const;

/** Facts about contacts (cms.contacts.v1, key = workspace id). */
export const CONTACT_FACT_TYPES = {
  created: 'contact.created',
  updated: 'contact.updated',
  channelLinked: 'contact.channel-linked',
  channelUnlinked: 'contact.channel-unlinked',
} as const;

// --- requests ---------------------------------------------------------------------------------

export class ContactUpsertRequestedV1 extends UpsertContactBody {
  /** Minted by the gateway; used only when the upsert creates a contact. */
  @IsInt()
  @Min(1)
  contact_id!: number;

  /**
   * The workspace plan's stored-contacts limit as the gateway's cached key saw it: used only for a
   * workspace whose plan records carry no limit (the limit of the latest one is used otherwise).
   */
  @IsInt()
  @Min(0)
  contact_limit!: number;
}

/** One element of a batch as the client sent it, plus the id minted for it. */
export class BatchContactElementV1 {
  @IsInt()
  @Min(1)
  contact_id!: number;

  // The client's fields, validated one element at a time by the contacts service.
  [field: string]: unknown;
}

export class ContactBatchUpsertRequestedV1 {
  /** As on ContactUpsertRequestedV1. */
  @IsInt()
  @Min(0)
  contact_limit!: number;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BATCH_CONTACTS)
  @ValidateNested({ each: true })
  @Type(() => BatchContactElementV1)
  contacts!: BatchContactElementV1[];
}

export class ContactUpdateRequestedV1 extends UpdateContactBody {
  /** From the path. */
  @IsInt()
  @Min(1)
  contact_id!: number;
}

export class ContactChannelLinkRequestedV1 extends LinkChannelBody {
  @IsInt()
  @Min(1)
  contact_id!: number;

  @IsIn(LINK_CHANNELS)
  channel!: LinkChannel;
}

/** A consent change a channel reported for a contact, with where it came from. */
export class ContactConsentChangeRequestedV1 {
  @IsInt()
  @Min(1)
  contact_id!: number;

  @IsIn(CONSENT_CHANNELS)
  channel!: ConsentChannel;

  @IsBoolean()
  granted!: boolean;

  @IsIn(CHANNEL_CONSENT_SOURCES)
  source!: (typeof CHANNEL_CONSENT_SOURCES)[number];

  /** When the contact said it (the inbound message's or the provider's time). */
  @IsISO8601()
  occurred_at!: string;
}

// --- facts ------------------------------------------------------------------------------------

/** The whole contact after the change (contact.created, contact.updated). */
export class ContactSnapshotV1 {
  @IsInt()
  @Min(1)
  contact_id!: number;

  @IsOptional()
  @IsString()
  name!: string | null;

  @IsOptional()
  @IsString()
  phone!: string | null;

  @IsOptional()
  @IsString()
  email!: string | null;

  @IsOptional()
  @IsString()
  external_id!: string | null;

  @IsOptional()
  @IsString()
  source!: string | null;

  @IsObject()
  data!: Record<string, unknown>;

  /** Every consent channel: true, false, or null when nothing was ever recorded. */
  @IsObject()
  marketing_consent!: MarketingConsent;

  @IsArray()
  @IsInt({ each: true })
  tag_ids!: number[];

  /** Every linkable channel: the contact's id there, or null. */
  @IsObject()
  channels!: ContactChannels;

  @IsISO8601()
  created_at!: string;

  @IsISO8601()
  updated_at!: string;

  /** contact.updated only: the fields whose values changed (`data.<key>` for custom fields). */
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  changed_fields?: string[];
}

export class ContactChannelLinkedV1 {
  @IsInt()
  @Min(1)
  contact_id!: number;

  @IsIn(LINK_CHANNELS)
  channel!: LinkChannel;

  @IsString()
  external_id!: string;

  /** The id the contact had on this channel before, if any. */
  @IsOptional()
  @IsString()
  previous_external_id?: string | null;

  @IsISO8601()
  at!: string;
}

export class ContactChannelUnlinkedV1 {
  @IsInt()
  @Min(1)
  contact_id!: number;

  @IsIn(LINK_CHANNELS)
  channel!: LinkChannel;

  @IsString()
  external_id!: string;

  /** The contact the channel id moved to. */
  @IsInt()
  @Min(1)
  moved_to_contact_id!: number;

  @IsISO8601()
  at!: string;
}
