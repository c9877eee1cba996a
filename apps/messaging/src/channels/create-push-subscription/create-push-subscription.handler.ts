import { createHash } from 'node:crypto';

import type { PushSubscriptionCreateRequestedV1 } from '@cms/contracts';
import { AddressPolicy } from '@cms/http';
import type { Answer, Decision } from '@cms/kafka';
import { Inject, Injectable } from '@nestjs/common';

import { MESSAGING_CONFIG, type MessagingConfig } from '../../config';
import { MessagingException, type FieldProblem } from '../../decisions/messaging.exception';
import { validatePushSubscription } from '../../providers/web-push/push-subscription';
import { PushSubscriptionEntity } from '../channel.entity';
import { ChannelRepository } from '../channel.repository';
import { pushEndpointProblem } from '../push-endpoint';

/** `ps_` and 24 hex digits of SHA-256 over the channel and the endpoint: one id per browser and channel. */
export function subscriberId(channelId: number, endpoint: string): string {
  return `ps_${createHash('sha256').update(`${channelId}${endpoint}`).digest('hex').slice(0, 24)}`;
}

/**
 * POST /api/v1/channels/{id}/push-subscriptions: a browser's PushSubscription on a browser_push
 * channel. The same endpoint again answers the subscription it made (201), with the keys it now sent.
 */
@Injectable()
export class CreatePushSubscriptionHandler {
  private readonly policy: AddressPolicy;

  constructor(@Inject(MESSAGING_CONFIG) config: MessagingConfig) {
    this.policy = new AddressPolicy(config.allowNetworks);
  }

  async handle(decision: Decision<PushSubscriptionCreateRequestedV1>): Promise<Answer> {
    const { channel_id: channelId, endpoint, keys } = decision.data;
    const channels = new ChannelRepository(decision.manager);
    const channel = await channels.findInWorkspace(decision.workspaceId, channelId);
    if (!channel) throw MessagingException.channelNotFound(channelId);
    if (channel.type !== 'browser_push') throw MessagingException.notBrowserPush(channelId, channel.type);
    const problems = this.problems(decision.data);
    if (problems.length > 0) throw MessagingException.invalidFields(problems);
    const id = subscriberId(channelId, endpoint);
    const subscription =
      (await channels.findSubscription(id)) ??
      Object.assign(new PushSubscriptionEntity(), {
        subscriberId: id,
        workspaceId: decision.workspaceId,
        channelId,
        endpoint,
        createdAt: decision.atDate,
      });
    subscription.p256dh = keys.p256dh;
    subscription.auth = keys.auth;
    await channels.saveSubscription(subscription);
    return {
      status: 201,
      resource: { subscriber_id: id, endpoint, created_at: subscription.createdAt.toISOString() },
    };
  }

  /** The subscription's own checks (https endpoint, key sizes), then the address the endpoint names. */
  private problems(data: PushSubscriptionCreateRequestedV1): FieldProblem[] {
    const problems = validatePushSubscription({ endpoint: data.endpoint, keys: data.keys }).problems.map(
      ({ pointer, detail }) => ({ pointer: `/data/attributes${pointer}`, detail }),
    );
    if (problems.some(({ pointer }) => pointer === '/data/attributes/endpoint')) return problems;
    const refusal = pushEndpointProblem(data.endpoint, this.policy);
    return refusal === undefined
      ? problems
      : [{ pointer: '/data/attributes/endpoint', detail: refusal }, ...problems];
  }
}
