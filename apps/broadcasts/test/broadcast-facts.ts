import {
  createEnvelope,
  MESSAGING_FACT_TYPES,
  SEGMENTS_FACT_TYPES,
  SNAPSHOT_PART_SIZE,
  type AudienceSnapshotPartV1,
  type AudienceSnapshotTakenV1,
  type Envelope,
} from '@cms/contracts';

/**
 * The facts other services publish that move sends, as they publish them: the segments service's
 * audience snapshot (cms.segments.v1) and messaging's facts of a send's messages (cms.messaging.v1).
 */

/** The parts and the taken fact of a snapshot of `members` (deduplicated already), as segments publishes them. */
export function snapshotFacts(
  workspaceId: number,
  sendId: number,
  audienceId: number,
  members: number[],
  options: { deduplicated?: number; found?: boolean } = {},
): Envelope[] {
  const parts: Envelope[] = [];
  for (let part = 0; part * SNAPSHOT_PART_SIZE < members.length; part += 1) {
    const data: AudienceSnapshotPartV1 = {
      snapshot_id: sendId,
      audience_id: audienceId,
      part,
      contact_ids: members.slice(part * SNAPSHOT_PART_SIZE, (part + 1) * SNAPSHOT_PART_SIZE),
    };
    parts.push(
      createEnvelope({
        type: SEGMENTS_FACT_TYPES.snapshotPart,
        source: 'segments',
        workspaceid: String(workspaceId),
        subject: String(sendId),
        data,
      }),
    );
  }
  const deduplicated = options.deduplicated ?? 0;
  const taken: AudienceSnapshotTakenV1 = {
    snapshot_id: sendId,
    audience_id: audienceId,
    found: options.found ?? true,
    parts: parts.length,
    audience_size: members.length + deduplicated,
    deduplicated,
    at: new Date().toISOString(),
  };
  return [
    ...parts,
    createEnvelope({
      type: SEGMENTS_FACT_TYPES.snapshotTaken,
      source: 'segments',
      workspaceid: String(workspaceId),
      subject: String(sendId),
      data: taken,
    }),
  ];
}

export type MessageStage = 'queued' | 'sent' | 'delivered' | 'read' | 'failed' | 'suppressed';

const TYPES: Record<MessageStage, string> = {
  queued: MESSAGING_FACT_TYPES.messageQueued,
  sent: MESSAGING_FACT_TYPES.messageSent,
  delivered: MESSAGING_FACT_TYPES.messageDelivered,
  read: MESSAGING_FACT_TYPES.messageRead,
  failed: MESSAGING_FACT_TYPES.messageFailed,
  suppressed: MESSAGING_FACT_TYPES.messageSuppressed,
};

/** A stage of a send's outbound sms message, as messaging's fact of it says. */
export function messageFact(
  workspaceId: number,
  message: {
    id: string;
    sendId: number;
    contactId: number;
    status: MessageStage;
    failureCode?: string;
    fallbackFrom?: string;
  },
): Envelope {
  return createEnvelope({
    type: TYPES[message.status],
    source: 'messaging',
    workspaceid: String(workspaceId),
    subject: message.id,
    data: {
      id: message.id,
      direction: 'outbound',
      status: message.status,
      channel: 'sms',
      channel_id: 1,
      recipient: '+14155550100',
      template: 'promo',
      workflow: null,
      campaign_id: message.sendId,
      test: false,
      fallback_from: message.fallbackFrom ?? null,
      failure:
        message.status === 'failed'
          ? { code: message.failureCode ?? 'invalid_recipient', reason: 'r', fix: 'f', provider_code: null }
          : null,
      suppression: null,
      contact: { id: message.contactId, external_id: null, name: 'Ada', phone: '+14155550100', email: null },
      sent_at: null,
      delivered_at: null,
      read_at: null,
      failed_at: null,
      at: new Date().toISOString(),
    },
  });
}
