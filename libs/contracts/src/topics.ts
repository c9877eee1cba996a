/**
 * Every topic of the system. Names carry a version: a breaking change to a topic's meaning is a new
 * topic, never a reinterpretation of an old one.
 */
export const TOPICS = {
  /** Every write request the gateway accepted. The system of record. Key: workspace id. */
  requests: 'cms.requests.v1',
  /** The owning service's answer to a request, read by the gateway. Short retention. */
  outcomes: 'cms.outcomes.v1',
  contacts: 'cms.contacts.v1',
  segments: 'cms.segments.v1',
  automations: 'cms.automations.v1',
  broadcasts: 'cms.broadcasts.v1',
  messaging: 'cms.messaging.v1',
  webhooks: 'cms.webhooks.v1',
  gateway: 'cms.gateway.v1',
  /** Records that a consumer could not apply, with the reason; kept forever for an operator. */
  deadLetters: 'cms.deadletters.v1',
} as const;

export type TopicName = (typeof TOPICS)[keyof typeof TOPICS];
