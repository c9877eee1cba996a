import { isFailureCode } from '@cms/contracts';

import type { ChannelEntity, PushSubscriptionEntity } from '../channels/channel.entity';
import type { ContactEntity } from '../contacts/contact.entity';
import { trackLinks, type LinkTracking } from '../links/link-rewriting';
import type { MessageEntity } from '../messages/message.entity';
import type { OutboundMessage, SendResult } from '../providers/provider';
import { sandboxOutcome, sandboxProviderMessageId } from '../providers/sandbox/sandbox.adapter';
import type { TemplateEntity } from '../templates/template.entity';
import { whoMayBeMessaged } from './recipient-rules';
import type { ClaimedJob, Finish, Postponement, SendBatchRows } from './send-queue.repository';
import { suppressionKey } from './send-queue.repository';

/** How long a message waits for its contact to reach this service's view of contacts. */
export const CONTACT_WAIT_MS = 30_000;
const CONTACT_RETRY_MS = 1_000;

/** Retried refusals (rate limits, a provider down) give up after this long since the first attempt. */
export const RETRY_FOR_MS = 3600_000;
const MAX_BACKOFF_MS = 300_000;

/** The longest detail an attempt record carries (its contract's bound). */
const MAX_DETAIL = 2048;

export const INTERRUPTED_DETAIL =
  'the service stopped while the provider was being asked; the message may or may not have been sent';

/** A message that goes to a real provider: asked outside any transaction. */
export interface ProviderSend {
  job: ClaimedJob;
  channel: ChannelEntity;
  message: Omit<OutboundMessage, 'callbackUrl'>;
  /** The attempt as recorded when the provider accepts it. */
  recipient: string;
  rendered: {
    body: string | null;
    subject: string | null;
    html: string | null;
    links?: Array<{ url: string }>;
  };
}

/** What to do with each claimed job of a batch: record now, ask a provider, or later. */
export interface SendPlan {
  finishes: Finish[];
  postponements: Postponement[];
  /** Jobs with nothing left to do. */
  drops: ClaimedJob[];
  providerSends: ProviderSend[];
}

type Attempt = Finish['attempt'];

function failed(code: string, detail: string, extra: Partial<Attempt> = {}): Attempt {
  return {
    outcome: 'failed',
    recipient: null,
    body: null,
    ...extra,
    failure: { code, provider_code: null, detail },
  };
}

/**
 * Decides, for each job of a claimed batch, what sending it takes (§9, Who may be messaged, and
 * §9.5 for sandbox channels, which send here and now). Pure: the rows are read before, and only the
 * provider calls it leaves are I/O.
 */
export function planSends(
  jobs: ClaimedJob[],
  rows: SendBatchRows,
  suppressed: Set<string>,
  now: number,
  /** Where tracked links point and the key of their tokens (§10); without it nothing is tracked. */
  tracking?: LinkTracking,
): SendPlan {
  const plan: SendPlan = { finishes: [], postponements: [], drops: [], providerSends: [] };
  for (const job of jobs) {
    const message = rows.messages.get(job.messageId);
    const finish = (attempt: Attempt): void => void plan.finishes.push({ job, attempt });
    if (message !== undefined && message.status === 'queued' && isPrepared(message)) {
      planPrepared(plan, job, message, rows.channels.get(Number(message.channelId)));
      continue;
    }
    if (message === undefined || message.status !== 'queued' || message.route === null) {
      // Its attempt is on record already (a rebuild made the job again): nothing more to record.
      plan.drops.push(job);
      continue;
    }
    if (job.state === 'sending') {
      finish(failed('provider_error', INTERRUPTED_DETAIL));
      continue;
    }
    const channel = rows.channels.get(Number(message.channelId));
    if (channel === undefined) {
      finish(failed('channel_disabled', `channel ${message.channelId} was deleted`));
      continue;
    }
    const contact = message.contactId === null ? undefined : rows.contacts.get(Number(message.contactId));
    if (contact === undefined) {
      if (now - job.firstAttemptAt.getTime() < CONTACT_WAIT_MS) {
        plan.postponements.push({
          job,
          delayMs: CONTACT_RETRY_MS,
          counted: false,
          error: `contact ${message.contactId} is not known here yet`,
        });
      } else {
        finish({
          outcome: 'suppressed',
          recipient: null,
          body: null,
          suppression: {
            reason: 'no_recipient',
            detail: `Contact ${message.contactId} has no address known to the messaging service.`,
          },
        });
      }
      continue;
    }
    const template = message.templateId === null ? undefined : rows.templates.get(Number(message.templateId));
    // A bot's text has no template: it is sent as written.
    if (template === undefined && message.route?.text !== undefined) {
      planOne(plan, job, message, channel, contact, null, suppressed, rows.pushSubscriptions, tracking);
      continue;
    }
    if (template === undefined) {
      finish(failed('template_error', `template ${message.templateId} was deleted`));
      continue;
    }
    planOne(plan, job, message, channel, contact, template, suppressed, rows.pushSubscriptions, tracking);
  }
  return plan;
}

function planOne(
  plan: SendPlan,
  job: ClaimedJob,
  message: MessageEntity,
  channel: ChannelEntity,
  contact: ContactEntity,
  template: TemplateEntity | null,
  suppressed: Set<string>,
  subscriptions: Map<string, PushSubscriptionEntity>,
  tracking: LinkTracking | undefined,
): void {
  const route = message.route!;
  const verdict = whoMayBeMessaged({
    channelType: message.channelType,
    purpose: route.purpose,
    variables: route.variables,
    event: route.event ?? null,
    waitedEvent: route.waited_event ?? null,
    contact,
    content: template === null ? { text: route.text! } : { template },
    isSuppressed: (address) => suppressed.has(suppressionKey(job.workspaceId, message.channelType, address)),
  });
  const finish = (attempt: Attempt): void => void plan.finishes.push({ job, attempt });
  if (verdict.kind === 'suppress') {
    finish({
      outcome: 'suppressed',
      recipient: verdict.recipient,
      body: null,
      suppression: { reason: verdict.reason, detail: verdict.detail.slice(0, MAX_DETAIL) },
    });
    return;
  }
  const { recipient, rendered } = verdict;
  const content = trackedContent(rendered, message.id, template?.trackLinks ? tracking : undefined);
  if (channel.status === 'disabled') {
    finish(failed('channel_disabled', `channel ${channel.id} is disabled`, { recipient }));
    return;
  }
  if (channel.provider === 'sandbox') {
    const { initial } = sandboxOutcome(message.channelType, recipient);
    if (initial === 'sent') {
      finish({
        outcome: 'sent',
        recipient,
        ...content,
        provider_message_id: sandboxProviderMessageId(message.id),
      });
    } else {
      finish(
        failed(initial, `sandbox: recipient ${recipient} always fails with ${initial}`, {
          recipient,
          ...content,
        }),
      );
    }
    return;
  }
  const subscription = message.channelType === 'browser_push' ? subscriptions.get(recipient) : undefined;
  if (message.channelType === 'browser_push' && subscription === undefined) {
    finish(failed('subscription_expired', `push subscription ${recipient} is gone`, { recipient }));
    return;
  }
  plan.providerSends.push({
    job,
    channel,
    recipient,
    rendered: content,
    message: {
      messageId: message.id,
      channelType: message.channelType,
      recipient: subscription?.endpoint ?? recipient,
      body: content.body ?? '',
      ...(content.subject !== null ? { subject: content.subject } : {}),
      ...(content.html !== null ? { html: content.html } : {}),
      ...(template !== null && template.providerTemplate !== null
        ? {
            providerTemplate: {
              name: template.providerTemplate.name,
              language: template.providerTemplate.language,
              parameters: rendered.parameters,
            },
          }
        : {}),
      ...(subscription !== undefined
        ? {
            pushSubscription: {
              endpoint: subscription.endpoint,
              keys: { p256dh: subscription.p256dh, auth: subscription.auth },
            },
          }
        : {}),
    },
  });
}

/**
 * A message whose recipient and body its decision fixed (a keyword's confirmation reply): no contact,
 * template or route. It answers someone who just wrote, so the suppression list and the consent are
 * not checked (a confirmation of an opt-out is never itself suppressed); the rest is as for any
 * message.
 */
export function isPrepared(message: MessageEntity): boolean {
  return message.direction === 'outbound' && message.route === null && message.templateId === null;
}

function planPrepared(
  plan: SendPlan,
  job: ClaimedJob,
  message: MessageEntity,
  channel: ChannelEntity | undefined,
): void {
  const finish = (attempt: Attempt): void => void plan.finishes.push({ job, attempt });
  if (job.state === 'sending') {
    finish(failed('provider_error', INTERRUPTED_DETAIL));
    return;
  }
  const recipient = message.recipient ?? '';
  const content = { body: message.body, subject: message.subject, html: message.html };
  if (channel === undefined) {
    finish(failed('channel_disabled', `channel ${message.channelId} was deleted`, { recipient }));
    return;
  }
  if (channel.status === 'disabled') {
    finish(failed('channel_disabled', `channel ${channel.id} is disabled`, { recipient }));
    return;
  }
  if (channel.provider === 'sandbox') {
    const { initial } = sandboxOutcome(message.channelType, recipient);
    finish(
      initial === 'sent'
        ? {
            outcome: 'sent',
            recipient,
            ...content,
            provider_message_id: sandboxProviderMessageId(message.id),
          }
        : failed(initial, `sandbox: recipient ${recipient} always fails with ${initial}`, {
            recipient,
            ...content,
          }),
    );
    return;
  }
  plan.providerSends.push({
    job,
    channel,
    recipient,
    rendered: content,
    message: {
      messageId: message.id,
      channelType: message.channelType,
      recipient,
      body: message.body ?? '',
      ...(message.subject !== null ? { subject: message.subject } : {}),
    },
  });
}

/**
 * The content as it is sent: with a template's `track_links`, its URLs replaced by tracked links (the
 * attempt then records them); `links` only when there are some, so an attempt without stays as it was.
 */
function trackedContent(
  rendered: { body: string | null; subject: string | null; html: string | null },
  messageId: string,
  tracking: LinkTracking | undefined,
): ProviderSend['rendered'] {
  const content = { body: rendered.body, subject: rendered.subject, html: rendered.html };
  if (tracking === undefined) return content;
  const { links, ...tracked } = trackLinks(content, messageId, tracking);
  return links.length === 0 ? content : { ...tracked, links };
}

/** What a provider's answer makes of a send: a record, or a retry later while the hour lasts. */
export function settleProviderSend(
  send: ProviderSend,
  result: SendResult,
  now: number,
): { finish: Finish } | { postponement: Postponement } {
  const { job, recipient, rendered } = send;
  if (result.outcome === 'sent') {
    return {
      finish: {
        job,
        attempt: { outcome: 'sent', recipient, ...rendered, provider_message_id: result.providerMessageId },
      },
    };
  }
  const retried = result.code === 'rate_limited' || result.code === 'provider_unavailable';
  if (retried && now - job.firstAttemptAt.getTime() < RETRY_FOR_MS) {
    const backoff = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(job.attempts, 12));
    return {
      postponement: {
        job,
        delayMs: Math.max(backoff, result.retryAfterMs ?? 0),
        counted: true,
        error: `${result.code}: ${result.detail}`,
      },
    };
  }
  return {
    finish: {
      job,
      attempt: {
        outcome: 'failed',
        recipient,
        ...rendered,
        failure: {
          code: isFailureCode(result.code) ? result.code : 'provider_error',
          provider_code: result.providerCode,
          detail: result.detail.slice(0, MAX_DETAIL),
        },
      },
    },
  };
}
