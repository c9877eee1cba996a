import {
  DEFAULT_STEP_TIMEOUT,
  isoDurationMs,
  type MessageSendRequestedV1,
  type MessageRouteStepV1,
} from '@cms/contracts';
import type { Answer } from '@cms/kafka';
import { Injectable } from '@nestjs/common';

import type { ChannelEntity } from '../../channels/channel.entity';
import type { MessagingDecision } from '../../decisions/messaging-decision';
import {
  MessagingErrorCode,
  MessagingException,
  type MessagingIssue,
} from '../../decisions/messaging.exception';
import type { RouteStep } from '../message.entity';
import { messageIdOfRecord } from '../message-ids';
import type { MessageStore, TemplateRef } from '../message.repository';
import { messageResource } from '../message.resource';
import { queueMessage } from '../queue-message';

interface ResolvedStep {
  step: RouteStep;
  channel: ChannelEntity;
  /** Null for a bot's text. */
  template: TemplateRef | null;
}

/**
 * `POST /api/v1/messages` (extensions §9, Messages), a workflow's `send` step (§12) or a notification
 * send's message (§13): every step of the route resolved to a channel and a template of the workspace,
 * the first step's message queued for the send worker. The contact was found by the gateway (or the
 * service asking); it is not looked up again here (this service's view of contacts may lag).
 */
@Injectable()
export class SendMessageHandler {
  async handle(decision: MessagingDecision<MessageSendRequestedV1>): Promise<Answer> {
    const { data, workspaceId, store: messages } = decision;
    if (data.idempotency_key !== undefined) {
      const original = await messages.findByIdempotencyKey(workspaceId, data.idempotency_key);
      if (original) return { status: 200, resource: { ...messageResource(original) } };
    }
    const resolved = await this.resolveRoute(messages, workspaceId, data.route, data.text !== undefined);
    const first = resolved[0]!;
    // Only a workflow or a notification send names what made its message (the edge refuses both).
    const workflow = data.workflow ?? null;
    const campaignId = data.campaign_id ?? null;
    const message = await queueMessage(decision, messages, {
      id: messageIdOfRecord(decision.record.id),
      route: {
        steps: resolved.map((entry) => entry.step),
        step: 0,
        variables: data.variables ?? {},
        purpose: data.purpose ?? 'transactional',
        ...(data.event !== undefined ? { event: data.event } : {}),
        ...(data.waited_event !== undefined ? { waited_event: data.waited_event } : {}),
        ...(data.text !== undefined ? { text: data.text } : {}),
      },
      channel: first.channel,
      template: first.template,
      contactId: data.contact_id,
      fallbackFrom: null,
      idempotencyKey: data.idempotency_key ?? null,
      source: workflow !== null || campaignId !== null || data.bot !== undefined ? 'service' : 'api',
      workflow,
      campaignId,
      test: data.test ?? false,
      bot: data.bot ?? null,
    });
    return { status: 202, resource: { ...messageResource(message) } };
  }

  /** Every step's channel and template, or every problem of the route at once. */
  private async resolveRoute(
    messages: MessageStore,
    workspaceId: number,
    route: MessageRouteStepV1[],
    text: boolean,
  ): Promise<ResolvedStep[]> {
    if (text) return this.resolveTextStep(messages, workspaceId, route);
    const issues: MessagingIssue[] = [];
    const resolved: ResolvedStep[] = [];
    for (const [index, body] of route.entries()) {
      const at = `/data/attributes/route/${index}`;
      const channel = await this.channelOf(messages, workspaceId, body, at, issues);
      if (body.template_id === undefined) {
        issues.push({
          code: MessagingErrorCode.UnknownRouteTemplate,
          detail: 'A route step names a template.',
          pointer: `${at}/template_id`,
        });
        continue;
      }
      const template = await messages.template(workspaceId, body.template_id);
      if (template === null) {
        issues.push({
          code: MessagingErrorCode.UnknownRouteTemplate,
          detail: `Template ${body.template_id} was not found.`,
          pointer: `${at}/template_id`,
        });
      } else if (channel !== null && template.channel !== channel.type) {
        issues.push({
          code: MessagingErrorCode.RouteTypeMismatch,
          detail: `Template ${template.id} is a ${template.channel} template; the step's channel is ${channel.type}.`,
          pointer: `${at}/template_id`,
        });
      }
      if (channel === null || template === null) continue;
      const waitFor = body.wait_for ?? null;
      resolved.push({
        channel,
        template,
        step: {
          channel_id: channel.id,
          channel: channel.type,
          template_id: template.id,
          wait_for: waitFor,
          timeout_ms: waitFor === null ? null : isoDurationMs(body.timeout ?? DEFAULT_STEP_TIMEOUT),
        },
      });
    }
    if (issues.length > 0) throw new MessagingException(issues);
    return resolved;
  }

  /** A bot's text (extensions §12): one step, its channel and no template, sent exactly as written. */
  private async resolveTextStep(
    messages: MessageStore,
    workspaceId: number,
    route: MessageRouteStepV1[],
  ): Promise<ResolvedStep[]> {
    const issues: MessagingIssue[] = [];
    const body = route[0]!;
    if (route.length !== 1 || body.template_id !== undefined || body.wait_for !== undefined) {
      throw new MessagingException({
        code: MessagingErrorCode.UnknownRouteTemplate,
        detail: 'A text message has a route of one step naming its channel, with no template and no wait.',
        pointer: '/data/attributes/route',
      });
    }
    const channel = await this.channelOf(messages, workspaceId, body, '/data/attributes/route/0', issues);
    if (channel === null) throw new MessagingException(issues);
    return [
      {
        channel,
        template: null,
        step: {
          channel_id: channel.id,
          channel: channel.type,
          template_id: null,
          wait_for: null,
          timeout_ms: null,
        },
      },
    ];
  }

  private async channelOf(
    messages: MessageStore,
    workspaceId: number,
    body: MessageRouteStepV1,
    at: string,
    issues: MessagingIssue[],
  ): Promise<ChannelEntity | null> {
    if (body.channel_id !== undefined) {
      const channel = await messages.channel(workspaceId, body.channel_id);
      if (channel === null) {
        issues.push({
          code: MessagingErrorCode.UnknownRouteChannel,
          detail: `Channel ${body.channel_id} was not found.`,
          pointer: `${at}/channel_id`,
        });
        return null;
      }
      if (body.channel !== undefined && body.channel !== channel.type) {
        issues.push({
          code: MessagingErrorCode.RouteTypeMismatch,
          detail: `Channel ${channel.id} is a ${channel.type} channel, not ${body.channel}.`,
          pointer: `${at}/channel_id`,
        });
        return null;
      }
      return channel;
    }
    const type = body.channel!;
    const channel = await messages.defaultChannel(workspaceId, type);
    if (channel === null) {
      issues.push({
        code: MessagingErrorCode.NoDefaultChannel,
        detail: `The workspace has no default ${type} channel.`,
        pointer: `${at}/channel`,
      });
    }
    return channel;
  }
}
