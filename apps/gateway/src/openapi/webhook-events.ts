import { WEBHOOK_TEST_EVENT_TYPE, type WebhookDeliveryType } from '@cms/contracts';

/**
 * The outbound webhooks (specification "Events", extensions §4): one entry per kind under the
 * document's `webhooks`, each the signed POST webhook-dispatch sends (dispatch/webhook.sender.ts) with
 * the envelope of deliveries/webhook-envelope.ts and the `data` deliveries/webhook-sources.ts makes.
 */

/** How a receiver checks an outbound webhook (the specification's four steps). */
export const WEBHOOK_SIGNATURE_DESCRIPTION = [
  'Each endpoint (`/api/v1/webhook-endpoints`, business and agency plans) receives the kinds it chose, listed under `webhooks`: a signed HTTPS `POST` of the JSON envelope `{"id", "type", "created_at", "data"}` with these headers:',
  '',
  '| Header | Value |',
  '|---|---|',
  '| Content-Type | `application/json` |',
  '| User-Agent | `Service-Webhooks/1.0` |',
  '| Service-Event | the event kind (the envelope `type`) |',
  '| Service-Delivery | the delivery id, a UUID (the envelope `id`) |',
  '| Service-Signature | `t=<unix seconds>,v1=<hex>` |',
  '',
  '### Verifying the signature',
  '',
  '1. Parse Service-Signature into `t` and `v1` (split at `,`, each part at the first `=`).',
  '2. Compute the HMAC-SHA256, hex encoded, over the string `<t>.<raw body>` with the endpoint’s signing secret (`whsec_…`, exactly as it was shown), using the raw body bytes before JSON parsing.',
  '3. Compare it with `v1` in constant time.',
  '4. Reject the delivery when the timestamp `t` is older than five minutes (300 seconds).',
  '',
  'For 24 hours after `POST /api/v1/webhook-endpoints/{id}/roll-secret` the header carries a second `v1=`, made with the previous secret (`t=…,v1=<new>,v1=<previous>`): accept the delivery when any `v1` matches, so a receiver still holding the old secret keeps verifying while it switches.',
  '',
  '### Answering and retries',
  '',
  '- Answer any 2xx within 10 seconds; do slow work after answering. The first 16 KiB of the answer are kept in the delivery’s attempts.',
  '- Anything else fails the attempt: another status, a redirect (never followed), no answer in time, a connection or TLS failure. A failed delivery is retried with increasing delays (by default 30 s, 5 min, 30 min, 2 h, 6 h and 15 h, each plus up to 10 % jitter: seven attempts over about a day); a `Retry-After` on a 429 or 503 can push the next attempt later. A delivery whose seven attempts failed is `failed`.',
  '- The same delivery may arrive more than once (a retry after an answer that was lost, a redelivery): de-duplicate with Service-Delivery or the envelope `id`, which stay the same, while the signature is made afresh.',
  '- After 25 failed deliveries in a row the endpoint is switched off (`enabled: false`, `disabled_reason: "failures"`) and receives nothing until a PATCH `enabled: true`. Test deliveries never count.',
  '- The events of one message (and its link clicks), and the two notifications of one alert, reach an endpoint in the order they happened.',
  '- Payload fields are only ever added, never removed or renamed: ignore fields you do not know.',
].join('\n');

const SCHEMAS = '#/components/schemas/';

function ref(name: string): Record<string, unknown> {
  return { $ref: `${SCHEMAS}${name}` };
}

/** The request headers of every delivery of `kind`. */
function headers(kind: WebhookDeliveryType): Record<string, unknown>[] {
  return [
    {
      name: 'Content-Type',
      in: 'header',
      required: true,
      description: 'Always `application/json`.',
      schema: { type: 'string', enum: ['application/json'] },
    },
    {
      name: 'User-Agent',
      in: 'header',
      required: true,
      description: 'Always `Service-Webhooks/1.0`.',
      schema: { type: 'string', enum: ['Service-Webhooks/1.0'] },
    },
    {
      name: 'Service-Event',
      in: 'header',
      required: true,
      description: 'The event kind; equals the envelope `type`.',
      schema: { type: 'string', enum: [kind] },
    },
    {
      name: 'Service-Delivery',
      in: 'header',
      required: true,
      description:
        'The delivery id; equals the envelope `id`, and stays the same on every retry and redelivery. De-duplicate with it.',
      schema: { type: 'string', format: 'uuid' },
    },
    {
      name: 'Service-Signature',
      in: 'header',
      required: true,
      description:
        '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the signing secret>`; for 24 hours after a roll-secret a second `v1=` made with the previous secret. See "Verifying the signature" in the description of this API.',
      schema: { type: 'string', pattern: '^t=[0-9]+(,v1=[0-9a-f]{64}){1,2}$' },
    },
  ];
}

const RESPONSES = {
  '2XX': {
    description:
      'Received: any 2xx answered within 10 seconds ends the delivery as `succeeded` (its first 16 KiB are kept in the attempt).',
  },
  default: {
    description:
      'Any other answer, a redirect (never followed), no answer within 10 seconds, or a connection or TLS failure fails the attempt: the delivery is retried with increasing delays, seven attempts over about a day in all (a `Retry-After` on 429 or 503 is honoured), then it is `failed`. After 25 failed deliveries in a row the endpoint is switched off.',
  },
};

interface Kind {
  summary: string;
  description: string;
  data: string;
  /** Constraints on `data` beyond its schema for this kind (its `status`). */
  dataStatus?: string;
  /** Operation ids must be unique in the document. */
  operationId: string;
}

const MESSAGE_ORDER =
  ' Each message sends each of its message.* events at most once, in the order sent → delivered → read or failed / suppressed, and they reach an endpoint in that order.';

const KINDS: Record<WebhookDeliveryType, Kind> = {
  'message.sent': {
    summary: 'A message was accepted by the channel',
    description: `The provider accepted the message (\`data.status\` is \`sent\`).${MESSAGE_ORDER}`,
    data: 'MessageEventData',
    dataStatus: 'sent',
    operationId: 'webhookMessageSent',
  },
  'message.delivered': {
    summary: 'A message reached the customer',
    description: `The provider reported the message delivered (\`data.status\` is \`delivered\`).${MESSAGE_ORDER}`,
    data: 'MessageEventData',
    dataStatus: 'delivered',
    operationId: 'webhookMessageDelivered',
  },
  'message.read': {
    summary: 'The customer read a message',
    description: `The provider reported the message read (\`data.status\` is \`read\`; \`delivered_at\` stays \`null\` when no delivered receipt came first).${MESSAGE_ORDER}`,
    data: 'MessageEventData',
    dataStatus: 'read',
    operationId: 'webhookMessageRead',
  },
  'message.failed': {
    summary: 'A message could not be delivered',
    description: `The message failed (\`data.status\` is \`failed\`): \`failure\` says why, with the code, a reason and a fix, and the provider's own code.${MESSAGE_ORDER}`,
    data: 'MessageEventData',
    dataStatus: 'failed',
    operationId: 'webhookMessageFailed',
  },
  'message.suppressed': {
    summary: 'A message was not sent because of consent or suppression',
    description: `The message was not sent (\`data.status\` is \`suppressed\`): the contact had no address for the channel, the address is on the suppression list, a marketing message lacked consent, or the template could not be rendered for the contact. The reason is on the message (\`GET /api/v1/messages/{id}\`, \`suppression\`).${MESSAGE_ORDER}`,
    data: 'MessageEventData',
    dataStatus: 'suppressed',
    operationId: 'webhookMessageSuppressed',
  },
  'link.clicked': {
    summary: 'The customer opened a tracked link for the first time',
    description:
      "The first human click of each tracked link of a message (bots, link scanners and clicks within 2 seconds of sending are not reported; later clicks are only counted on the message). It reaches an endpoint after the message's own message.* events.",
    data: 'LinkClickedData',
    operationId: 'webhookLinkClicked',
  },
  'outcome.recorded': {
    summary: 'A workflow reached its goal',
    description:
      'A contact of a running workflow recorded its goal event (through `POST /api/v1/events` or an inbound webhook) within the goal’s time: the outcome, the event and the message credited with it.',
    data: 'OutcomeRecordedData',
    operationId: 'webhookOutcomeRecorded',
  },
  'consent.granted': {
    summary: 'A contact agreed to marketing on a channel',
    description:
      'Marketing consent on one channel became `true`: through the API (`source: api`) or an opt-in keyword the contact sent (`keyword`).',
    data: 'ConsentEventData',
    dataStatus: 'granted',
    operationId: 'webhookConsentGranted',
  },
  'consent.revoked': {
    summary: 'A contact withdrew marketing consent on a channel',
    description:
      'Marketing consent on one channel became `false`: through the API (`source: api`), an opt-out keyword the contact sent (`keyword`), or a provider’s opt-out (`provider`).',
    data: 'ConsentEventData',
    dataStatus: 'revoked',
    operationId: 'webhookConsentRevoked',
  },
  'alert.triggered': {
    summary: 'Delivery monitoring raised or resolved an alert',
    description:
      'Sent when an alert starts (`status: firing`, `notification_seq: 1`) and again, with the same `id`, when it resolves (`status: resolved`, `notification_seq: 2`); the two reach an endpoint in that order.',
    data: 'AlertTriggeredData',
    operationId: 'webhookAlertTriggered',
  },
  [WEBHOOK_TEST_EVENT_TYPE]: {
    summary: 'A test delivery',
    description:
      'Sent by `POST /api/v1/webhook-endpoints/{id}/test` whatever kinds the endpoint chose; recorded among its deliveries like any other, but never counted toward switching it off.',
    data: 'WebhookTestData',
    operationId: 'webhookTest',
  },
};

function webhook(kind: WebhookDeliveryType, entry: Kind): Record<string, unknown> {
  const data = entry.dataStatus
    ? { allOf: [ref(entry.data), { properties: { status: { type: 'string', enum: [entry.dataStatus] } } }] }
    : ref(entry.data);
  return {
    post: {
      operationId: entry.operationId,
      summary: entry.summary,
      description: entry.description,
      tags: ['Webhook endpoints'],
      security: [],
      parameters: headers(kind),
      requestBody: {
        required: true,
        description: `The envelope, \`type\` \`${kind}\`; signed as Service-Signature says.`,
        content: {
          'application/json': {
            schema: {
              allOf: [
                ref('WebhookEnvelope'),
                { properties: { type: { type: 'string', enum: [kind] }, data } },
              ],
            },
          },
        },
      },
      responses: RESPONSES,
    },
  };
}

/** Every outbound event kind (OpenAPI 3.1 `webhooks`). */
export const WEBHOOK_EVENTS: Record<string, unknown> = Object.fromEntries(
  (Object.entries(KINDS) as Array<[WebhookDeliveryType, Kind]>).map(([kind, entry]) => [
    kind,
    webhook(kind, entry),
  ]),
);
