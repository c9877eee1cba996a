import type { IncomingHttpHeaders } from 'node:http';

import { HttpsReceiver } from './https-receiver';
import { System, type ServiceName } from './system';
import { verifyWebhookSignature, WebhookContract } from './webhook-contract';

/** A webhook as the customer's endpoint receives it. */
export interface Hook {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

/** A delivery as it arrived: its headers and its raw body. */
export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * The customer's HTTPS endpoint: answers 200 to every delivery and keeps, in arrival order, the hooks
 * whose Service-Signature verifies with the endpoint's secret (specification, Signature verification).
 * Once given the gateway's document (`checkAgainst`), it holds every delivery to the document's
 * `webhooks` entry for its kind and keeps what differs in `problems`.
 */
export class HookReceiver extends HttpsReceiver {
  readonly hooks: Hook[] = [];
  /** Every delivery, verified or not, in arrival order. */
  readonly received: ReceivedDelivery[] = [];
  /** How deliveries differed from the document's `webhooks`. */
  readonly problems: string[] = [];
  private secret = '';
  private contract: WebhookContract | undefined;

  constructor(name: string) {
    super(name, (headers, raw) => {
      const body = raw.toString('utf8');
      this.received.push({ headers, body });
      if (this.contract) this.problems.push(...this.contract.check(headers, body));
      if (this.verified(headers['service-signature'] as string | undefined, body)) {
        this.hooks.push(JSON.parse(body) as Hook);
      }
    });
  }

  /** The endpoint's signing secret, once the endpoint is made. */
  trust(secret: string): void {
    this.secret = secret;
  }

  /** From now on every delivery is checked against the document's `webhooks`. */
  checkAgainst(contract: WebhookContract): this {
    this.contract = contract;
    return this;
  }

  /** Throws when a delivery differed from the document. */
  assertAsDocumented(): void {
    if (this.problems.length > 0) {
      throw new Error(
        `deliveries differ from the OpenAPI document's webhooks:\n  ${[...new Set(this.problems)].join('\n  ')}`,
      );
    }
  }

  /** Any `v1` may match: after a roll-secret the header carries a second one, made with the old secret. */
  private verified(header: string | undefined, body: string): boolean {
    return verifyWebhookSignature(header, body, [this.secret]);
  }
}

/** What a messaging scenario runs on: the services, a business workspace's key, its endpoint's receiver. */
export interface MessagingScenario {
  system: System;
  receiver: HookReceiver;
  key: string;
  /** POST a create through the public API; answers the new resource's id (anything but 201 throws). */
  create(path: string, body: Record<string, unknown>): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The gateway, contacts, messaging and webhook-dispatch (sandbox statuses and webhook polls quick), a
 * business workspace, and its webhook endpoint for `eventTypes` on a receiver of its own.
 */
export async function startMessagingScenario(
  name: string,
  eventTypes: string[],
  env: Record<string, string> = {},
  /** Services beside those four (automations, say). */
  more: ServiceName[] = [],
): Promise<MessagingScenario> {
  const receiver = await new HookReceiver(name).start();
  const system = await System.start(['gateway', 'contacts', 'messaging', 'webhook-dispatch', ...more], {
    WEBHOOK_ALLOW_NETWORKS: '127.0.0.1/32',
    NODE_EXTRA_CA_CERTS: receiver.certificates.caFile,
    WEBHOOK_POLL_MS: '50',
    SANDBOX_STATUS_DELAY_MS: '50',
    ...env,
  });
  receiver.checkAgainst(await WebhookContract.read(system.url));
  const { key } = await system.tenant('business');
  const create = async (path: string, body: Record<string, unknown>): Promise<number> => {
    const answer = await system.call<{ data: { id: number } }>('POST', path, { key, body });
    if (answer.status !== 201) {
      throw new Error(`POST ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    }
    return answer.body.data.id;
  };
  const endpoint = await system.call<{ data: { secret: string } }>('POST', '/api/v1/webhook-endpoints', {
    key,
    body: { url: receiver.url('/hooks'), event_types: eventTypes },
  });
  if (endpoint.status !== 201) throw new Error(`the webhook endpoint answered ${endpoint.status}`);
  receiver.trust(endpoint.body.data.secret);
  return {
    system,
    receiver,
    key,
    create,
    async stop() {
      await system.stop();
      receiver.stop();
      receiver.assertAsDocumented();
    },
  };
}
