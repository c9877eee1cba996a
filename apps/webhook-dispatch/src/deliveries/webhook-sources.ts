import {
  CONSENT_FACT_TYPES,
  CONTACTS_RECORD_TYPES,
  type ConsentChangedV1,
  type DecodedRecord,
  type RecordTypeDefinition,
  type TopicKey,
  type WebhookEventType,
} from '@cms/contracts';

/** Turns one fact into the webhook event it is for its workspace's endpoints. */
export interface WebhookSource {
  /** The topic the fact is published on (a key of `Topics`); the facts consumer reads every one named here. */
  topic: TopicKey;
  /** The event kind endpoints subscribe to. */
  kind: WebhookEventType;
  /** The envelope's `data`: pure, from the fact alone, so a fact read again gives the same bytes. */
  data(fact: DecodedRecord): Record<string, unknown>;
}

function source<TFact>(
  topic: TopicKey,
  kind: WebhookEventType,
  data: (fact: TFact) => Record<string, unknown>,
): WebhookSource {
  return { topic, kind, data: (record) => data(record.data as TFact) };
}

/** data of consent.granted and consent.revoked: channel, status, source, contact (specification). */
function consentData(fact: ConsentChangedV1): Record<string, unknown> {
  const { contact } = fact;
  return {
    channel: fact.channel,
    status: fact.status,
    source: fact.source,
    contact: {
      id: contact.id,
      external_id: contact.external_id ?? null,
      name: contact.name ?? null,
      phone: contact.phone ?? null,
      email: contact.email ?? null,
    },
  };
}

/**
 * THE table from facts to webhook events: one row per fact type that becomes a webhook. Nothing else
 * in the service knows which facts exist. A producer plugs in by adding its rows, e.g. for messaging:
 *
 *   [MESSAGING_FACT_TYPES.delivered]: source<MessageDeliveredV1>('messaging', 'message.delivered', messageData),
 *   [OUTCOME_FACT_TYPES.recorded]: source<OutcomeRecordedV1>('automations', 'outcome.recorded', outcomeData),
 *
 * and its record definitions to SOURCE_RECORD_DEFINITIONS; the consumer then subscribes to its topic.
 */
export const WEBHOOK_SOURCES: Readonly<Record<string, WebhookSource>> = {
  [CONSENT_FACT_TYPES.granted]: source<ConsentChangedV1>('contacts', 'consent.granted', consentData),
  [CONSENT_FACT_TYPES.revoked]: source<ConsentChangedV1>('contacts', 'consent.revoked', consentData),
};

export const WEBHOOK_SOURCE_FACT_TYPES = Object.keys(WEBHOOK_SOURCES);

/** Every version of every fact type in the table, with its upcasters, as its owner registered them. */
const KNOWN_FACT_DEFINITIONS: readonly RecordTypeDefinition[] = [...CONTACTS_RECORD_TYPES];

export const SOURCE_RECORD_DEFINITIONS: RecordTypeDefinition[] = KNOWN_FACT_DEFINITIONS.filter(
  (definition) => definition.type in WEBHOOK_SOURCES,
);

/** The topic keys the facts consumer reads. */
export function sourceTopics(): TopicKey[] {
  return [...new Set(Object.values(WEBHOOK_SOURCES).map((entry) => entry.topic))];
}

/** Fails at boot, not at the first fact, when a row of the table has no record definition. */
export function assertSourcesRegistered(): void {
  const registered = new Set(SOURCE_RECORD_DEFINITIONS.map((definition) => definition.type));
  const missing = WEBHOOK_SOURCE_FACT_TYPES.filter((type) => !registered.has(type));
  if (missing.length > 0)
    throw new Error(`webhook sources without a record definition: ${missing.join(', ')}`);
}
