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

export type TopicKey = keyof typeof TOPICS;
export type Topics = { readonly [K in TopicKey]: string };

/**
 * The topic names under a namespace (`TOPIC_NAMESPACE`): empty for the real system; a test suite or
 * a second installation on a shared cluster gets `<namespace>.cms.requests.v1` and so on.
 */
export function topicNames(namespace = ''): Topics {
  if (namespace === '') return TOPICS;
  if (!/^[a-z0-9][a-z0-9-]*$/.test(namespace))
    throw new Error(`topic namespace ${JSON.stringify(namespace)} is not [a-z0-9-]+`);
  return Object.fromEntries(
    Object.entries(TOPICS).map(([key, name]) => [key, `${namespace}.${name}`]),
  ) as unknown as Topics;
}
