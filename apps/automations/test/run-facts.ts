import {
  CONSENT_CHANNELS,
  CONTACT_FACT_TYPES,
  createEnvelope,
  EVENT_FACT_TYPES,
  LINK_CHANNELS,
  LINK_FACT_TYPES,
  MESSAGING_FACT_TYPES,
  type ContactSnapshotV1,
  type Envelope,
  type EventRecordedV1,
} from '@cms/contracts';

/**
 * The facts other services publish that move runs, as they publish them: contacts' snapshots and
 * recorded events (cms.contacts.v1), messaging's facts of a workflow's message (cms.messaging.v1).
 */

const AT = '2026-06-15T12:00:00.000Z';

export function contactCreated(
  workspaceId: number,
  contactId: number,
  fields: Partial<ContactSnapshotV1> = {},
): Envelope {
  const data: ContactSnapshotV1 = {
    contact_id: contactId,
    name: 'Ada',
    phone: `+1415555${String(contactId).padStart(4, '0')}`,
    email: null,
    external_id: null,
    source: null,
    data: {},
    marketing_consent: Object.fromEntries(
      CONSENT_CHANNELS.map((channel) => [channel, null]),
    ) as ContactSnapshotV1['marketing_consent'],
    tag_ids: [],
    channels: Object.fromEntries(
      LINK_CHANNELS.map((channel) => [channel, null]),
    ) as ContactSnapshotV1['channels'],
    created_at: AT,
    updated_at: AT,
    ...fields,
  };
  return createEnvelope({
    type: CONTACT_FACT_TYPES.created,
    source: 'contacts',
    workspaceid: String(workspaceId),
    subject: String(contactId),
    data,
  });
}

export function eventRecorded(
  workspaceId: number,
  contactId: number,
  eventId: number,
  name: string,
  data: Record<string, unknown> = {},
): Envelope {
  const fact: EventRecordedV1 = {
    event_id: eventId,
    name,
    contact_id: contactId,
    data,
    occurred_at: AT,
    received_at: new Date().toISOString(),
    idempotency_key: null,
  };
  return createEnvelope({
    type: EVENT_FACT_TYPES.recorded,
    source: 'contacts',
    workspaceid: String(workspaceId),
    subject: String(contactId),
    data: fact,
  });
}

/** Messaging's fact of an sms message: what every message fact says, with `fields` over it. */
function smsMessageFact(
  workspaceId: number,
  type: string,
  id: string,
  contactId: number,
  fields: Record<string, unknown>,
): Envelope {
  return createEnvelope({
    type,
    source: 'messaging',
    workspaceid: String(workspaceId),
    subject: id,
    data: {
      id,
      direction: 'outbound',
      channel: 'sms',
      channel_id: 1,
      recipient: '+14155550100',
      template: null,
      workflow: null,
      campaign_id: null,
      bot: null,
      fallback_from: null,
      failure: null,
      suppression: null,
      contact: { id: contactId, external_id: null, name: 'Ada', phone: '+14155550100', email: null },
      sent_at: null,
      delivered_at: null,
      read_at: null,
      failed_at: null,
      at: new Date().toISOString(),
      ...fields,
    },
  });
}

/** A stage of a workflow's outbound sms message, as messaging's fact of it says. */
export function messageFact(
  workspaceId: number,
  message: {
    id: string;
    contactId: number;
    status: 'queued' | 'sent' | 'delivered' | 'failed';
    workflow: { id: number; name: string; run_id: number; step: string };
  },
): Envelope {
  const type = {
    queued: MESSAGING_FACT_TYPES.messageQueued,
    sent: MESSAGING_FACT_TYPES.messageSent,
    delivered: MESSAGING_FACT_TYPES.messageDelivered,
    failed: MESSAGING_FACT_TYPES.messageFailed,
  }[message.status];
  return smsMessageFact(workspaceId, type, message.id, message.contactId, {
    status: message.status,
    workflow: message.workflow,
  });
}

/** A human click on a tracked link of a workflow's message, as messaging's link.clicked says. */
export function linkClicked(
  workspaceId: number,
  message: {
    id: string;
    contactId: number;
    workflow: { id: number; name: string; run_id: number; step: string };
  },
): Envelope {
  return createEnvelope({
    type: LINK_FACT_TYPES.linkClicked,
    source: 'messaging',
    workspaceid: String(workspaceId),
    subject: message.id,
    data: {
      message_id: message.id,
      url: 'https://example.com/offer',
      link_index: 0,
      contact: { id: message.contactId, external_id: null, name: 'Ada', phone: '+14155550100', email: null },
      channel: 'sms',
      workflow: message.workflow,
      campaign_id: null,
      clicked_at: new Date().toISOString(),
      user_agent: 'Mozilla/5.0',
    },
  });
}

let lastInbound = 0;

/** An inbound sms message, as messaging's message.received says: its text, and a keyword when it is one. */
export function inboundMessage(
  workspaceId: number,
  message: { contactId: number; channelId: number; text: string; keyword?: 'opt_out' | 'opt_in' },
): Envelope {
  lastInbound += 1;
  const id = `msg_${lastInbound.toString(16).padStart(32, 'a')}`;
  return smsMessageFact(workspaceId, MESSAGING_FACT_TYPES.messageReceived, id, message.contactId, {
    direction: 'inbound',
    status: 'received',
    channel_id: message.channelId,
    recipient: null,
    body: message.text,
    keyword: message.keyword ?? null,
  });
}
