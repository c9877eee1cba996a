import {
  CONSENT_CHANNELS,
  CONTACT_FACT_TYPES,
  createEnvelope,
  EVENT_FACT_TYPES,
  LINK_CHANNELS,
  SUPPRESSION_FACT_TYPES,
  TAG_FACT_TYPES,
  type Envelope,
} from '@cms/contracts';

/** A contact as the contacts service's snapshot facts carry it; what a test leaves out is empty. */
export interface ContactSeed {
  id: number;
  name?: string | null;
  phone?: string | null;
  email?: string | null;
  external_id?: string | null;
  source?: string | null;
  data?: Record<string, unknown>;
  consent?: Partial<Record<(typeof CONSENT_CHANNELS)[number], boolean | null>>;
  channels?: Partial<Record<(typeof LINK_CHANNELS)[number], string | null>>;
  tag_ids?: number[];
  created_at?: string;
  updated_at?: string;
}

function fact(type: string, workspaceId: number, subject: string, data: object, time?: string): Envelope {
  return createEnvelope({
    type,
    source: 'contacts',
    workspaceid: String(workspaceId),
    subject,
    ...(time !== undefined ? { time } : {}),
    data,
  });
}

/** contact.created (or contact.updated) as the contacts service publishes it. */
export function contactFact(
  workspaceId: number,
  seed: ContactSeed,
  type: string = CONTACT_FACT_TYPES.created,
): Envelope {
  const at = seed.created_at ?? new Date().toISOString();
  return fact(type, workspaceId, String(seed.id), {
    contact_id: seed.id,
    name: seed.name ?? null,
    phone: seed.phone ?? null,
    email: seed.email ?? null,
    external_id: seed.external_id ?? null,
    source: seed.source ?? 'api',
    data: seed.data ?? {},
    marketing_consent: Object.fromEntries(
      CONSENT_CHANNELS.map((channel) => [channel, seed.consent?.[channel] ?? null]),
    ),
    tag_ids: seed.tag_ids ?? [],
    channels: Object.fromEntries(LINK_CHANNELS.map((channel) => [channel, seed.channels?.[channel] ?? null])),
    created_at: at,
    updated_at: seed.updated_at ?? at,
  });
}

export function tagFact(workspaceId: number, tagId: number, name: string): Envelope {
  return fact(TAG_FACT_TYPES.created, workspaceId, String(tagId), {
    tag_id: tagId,
    name,
    color: null,
    at: new Date().toISOString(),
  });
}

export function tagDeletedFact(workspaceId: number, tagId: number): Envelope {
  return fact(TAG_FACT_TYPES.deleted, workspaceId, String(tagId), {
    tag_id: tagId,
    at: new Date().toISOString(),
  });
}

export function tagsChangedFact(workspaceId: number, contactId: number, tagIds: number[]): Envelope {
  return fact(TAG_FACT_TYPES.contactTagsChanged, workspaceId, String(contactId), {
    contact_id: contactId,
    tag_ids: tagIds,
    added: tagIds,
    removed: [],
    at: new Date().toISOString(),
  });
}

export function eventFact(
  workspaceId: number,
  eventId: number,
  contactId: number,
  name: string,
  occurredAt: string,
): Envelope {
  return fact(EVENT_FACT_TYPES.recorded, workspaceId, String(eventId), {
    event_id: eventId,
    name,
    contact_id: contactId,
    data: {},
    occurred_at: occurredAt,
    received_at: occurredAt,
    idempotency_key: null,
  });
}

/** suppression.added / suppression.removed as the messaging service publishes them. */
export function suppressionFact(
  workspaceId: number,
  id: string,
  channel: string,
  address: string,
  added: boolean,
): Envelope {
  return createEnvelope({
    type: added ? SUPPRESSION_FACT_TYPES.added : SUPPRESSION_FACT_TYPES.removed,
    source: 'messaging',
    workspaceid: String(workspaceId),
    subject: id,
    data: { id, channel, address, reason: 'manual', source: 'api', at: new Date().toISOString() },
  });
}
