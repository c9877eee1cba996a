import {
  ALERT_FACT_TYPES,
  ALERT_RECORD_TYPES,
  CONSENT_FACT_TYPES,
  CONTACTS_RECORD_TYPES,
  LINK_FACT_TYPES,
  MESSAGING_FACT_TYPES,
  MESSAGING_RECORD_TYPES,
  RUN_FACT_TYPES,
  RUN_RECORD_TYPES,
  type AlertTriggeredV1,
  type ConsentChangedV1,
  type DecodedRecord,
  type LinkClickedV1,
  type MessageFactV1,
  type OutcomeRecordedV1,
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
  /**
   * What the event is about, when its events must reach an endpoint in the order of their facts: a
   * delivery to an endpoint waits while an earlier one of the same subject is pending there. The
   * facts of one subject must share a partition (their producer keys them so), as their offsets order them.
   */
  subject?(fact: DecodedRecord): string;
}

function source<TFact>(
  topic: TopicKey,
  kind: WebhookEventType,
  data: (fact: TFact) => Record<string, unknown>,
  subject?: (fact: TFact) => string,
): WebhookSource {
  return {
    topic,
    kind,
    data: (record) => data(record.data as TFact),
    ...(subject ? { subject: (record: DecodedRecord) => subject(record.data as TFact) } : {}),
  };
}

/** The contact as every webhook shows it: id, external_id, name, phone, email (specification). */
function contactData(
  contact:
    | ConsentChangedV1['contact']
    | MessageFactV1['contact']
    | LinkClickedV1['contact']
    | OutcomeRecordedV1['contact'],
): Record<string, unknown> {
  return {
    id: contact.id,
    external_id: contact.external_id ?? null,
    name: contact.name ?? null,
    phone: contact.phone ?? null,
    email: contact.email ?? null,
  };
}

/** data of consent.granted and consent.revoked: channel, status, source, contact (specification). */
function consentData(fact: ConsentChangedV1): Record<string, unknown> {
  return {
    channel: fact.channel,
    status: fact.status,
    source: fact.source,
    contact: contactData(fact.contact),
  };
}

/**
 * data of message.sent, .delivered, .read, .failed and .suppressed: the fields of the specification,
 * in its order; `failure` with the provider's own code besides code, reason and fix (extensions §9),
 * and `test` after `campaign_id`, so a receiver tells a notification's test send from its real ones
 * (§13), then `bot`, the bot conversation that made the message (§12). A fact published before
 * messages were marked has no `test` and no `bot`: no test send and no bot made its message.
 */
export function messageData(fact: MessageFactV1): Record<string, unknown> {
  const { workflow, failure, bot } = fact;
  return {
    id: fact.id,
    status: fact.status,
    channel: fact.channel,
    recipient: fact.recipient ?? null,
    template: fact.template ?? null,
    workflow: workflow
      ? { id: workflow.id, name: workflow.name, run_id: workflow.run_id, step: workflow.step }
      : null,
    campaign_id: fact.campaign_id ?? null,
    test: fact.test ?? false,
    bot: bot ? { id: bot.id, name: bot.name, conversation_id: bot.conversation_id } : null,
    fallback_from: fact.fallback_from ?? null,
    failure: failure
      ? {
          code: failure.code,
          reason: failure.reason,
          fix: failure.fix,
          provider_code: failure.provider_code ?? null,
        }
      : null,
    contact: contactData(fact.contact),
    sent_at: fact.sent_at ?? null,
    delivered_at: fact.delivered_at ?? null,
    read_at: fact.read_at ?? null,
    failed_at: fact.failed_at ?? null,
  };
}

/**
 * data of alert.triggered (extensions §10): the alert as `GET /api/v1/alerts/{id}` reads it when the
 * notification was made, and `notification_seq` (1 when it starts, 2 when it resolves).
 */
export function alertData(fact: AlertTriggeredV1): Record<string, unknown> {
  return {
    id: fact.id,
    rule_id: fact.rule_id,
    status: fact.status,
    metric: fact.metric,
    comparator: fact.comparator,
    value: fact.value,
    threshold: fact.threshold,
    window_minutes: fact.window_minutes,
    sample_size: fact.sample_size,
    scope: fact.scope,
    top_failure_codes: fact.top_failure_codes,
    started_at: fact.started_at,
    resolved_at: fact.resolved_at ?? null,
    created_at: fact.created_at,
    updated_at: fact.updated_at,
    notification_seq: fact.notification_seq,
  };
}

/** The events of one message reach an endpoint in the order of its facts (extensions §9, Statuses). */
function messageSource(kind: WebhookEventType): WebhookSource {
  return source<MessageFactV1>('messaging', kind, messageData, (fact) => fact.id);
}

/** data of link.clicked (extensions §10); after the message's own events, as its subject is the message. */
export function linkClickedData(fact: LinkClickedV1): Record<string, unknown> {
  const { workflow } = fact;
  return {
    message_id: fact.message_id,
    url: fact.url,
    link_index: fact.link_index,
    contact: contactData(fact.contact),
    channel: fact.channel,
    workflow: workflow
      ? { id: workflow.id, name: workflow.name, run_id: workflow.run_id, step: workflow.step }
      : null,
    campaign_id: fact.campaign_id ?? null,
    clicked_at: fact.clicked_at,
    user_agent: fact.user_agent,
  };
}

/**
 * data of outcome.recorded: the specification's fields in its order (extensions §12, Goals and
 * outcomes). The fact's `created_at` (when the outcome was recorded, as `GET /api/v1/outcomes` answers
 * it) is no field of the webhook's data: the envelope's `created_at` is the fact's time.
 */
export function outcomeData(fact: OutcomeRecordedV1): Record<string, unknown> {
  const { workflow, event } = fact;
  return {
    id: fact.id,
    goal: fact.goal,
    workflow: { id: workflow.id, name: workflow.name, run_id: workflow.run_id },
    credited_message_id: fact.credited_message_id ?? null,
    channel: fact.channel ?? null,
    contact: contactData(fact.contact),
    event: { id: event.id, data: event.data },
    occurred_at: fact.occurred_at,
  };
}

/**
 * THE table from facts to webhook events: one row per fact type that becomes a webhook. Nothing else
 * in the service knows which facts exist. A producer plugs in by adding its rows, as automations did:
 *
 *   [RUN_FACT_TYPES.outcomeRecorded]: source<OutcomeRecordedV1>('automations', 'outcome.recorded', outcomeData),
 *
 * and its record definitions to KNOWN_FACT_DEFINITIONS; the consumer then subscribes to its topic (and
 * the service catalog, libs/config/src/services.ts, names it among the facts consumer's topics).
 */
export const WEBHOOK_SOURCES: Readonly<Record<string, WebhookSource>> = {
  [CONSENT_FACT_TYPES.granted]: source<ConsentChangedV1>('contacts', 'consent.granted', consentData),
  [CONSENT_FACT_TYPES.revoked]: source<ConsentChangedV1>('contacts', 'consent.revoked', consentData),
  [MESSAGING_FACT_TYPES.messageSent]: messageSource('message.sent'),
  [MESSAGING_FACT_TYPES.messageDelivered]: messageSource('message.delivered'),
  [MESSAGING_FACT_TYPES.messageRead]: messageSource('message.read'),
  [MESSAGING_FACT_TYPES.messageFailed]: messageSource('message.failed'),
  [MESSAGING_FACT_TYPES.messageSuppressed]: messageSource('message.suppressed'),
  // An alert's start reaches an endpoint before its end: its events are ordered by the alert id.
  [ALERT_FACT_TYPES.alertTriggered]: source<AlertTriggeredV1>(
    'messaging',
    'alert.triggered',
    alertData,
    (fact) => fact.id,
  ),
  [LINK_FACT_TYPES.linkClicked]: source<LinkClickedV1>(
    'messaging',
    'link.clicked',
    linkClickedData,
    (fact) => fact.message_id,
  ),
  // One fact per outcome (a run reaches its goal once), so nothing to order, as with consent; ordering
  // by workspace would hold every outcome of a workspace behind one endpoint's failing delivery.
  [RUN_FACT_TYPES.outcomeRecorded]: source<OutcomeRecordedV1>('automations', 'outcome.recorded', outcomeData),
};

export const WEBHOOK_SOURCE_FACT_TYPES = Object.keys(WEBHOOK_SOURCES);

/** Every version of every fact type in the table, with its upcasters, as its owner registered them. */
const KNOWN_FACT_DEFINITIONS: readonly RecordTypeDefinition[] = [
  ...CONTACTS_RECORD_TYPES,
  ...MESSAGING_RECORD_TYPES,
  ...ALERT_RECORD_TYPES,
  ...RUN_RECORD_TYPES,
];

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
