import {
  LINK_FACT_TYPES,
  type LinkClickedV1,
  type LinkClicksRecordedV1,
  type LinkClickV1,
} from '@cms/contracts';
import type { Answer } from '@cms/kafka';
import { Injectable } from '@nestjs/common';

import type { MessagingDecision } from '../../decisions/messaging-decision';
import { contactBlock } from '../../messages/message.resource';
import { classifyClick } from '../click-classification';

/** Nobody waits for a click: the redirect was answered before it was recorded. */
const RECORDED: Answer = { status: 202 };

/**
 * Clicks on tracked links (extensions §10), decided in log order with the messages' other records
 * (on their own or in a chunk, through the decision's store), each at the time the gateway took it: a
 * machine's click (too soon after the send, a scanner's user agent, none) counts in `bot_clicks` and
 * sends nothing; a person's counts in `clicks`, and the first of each link sends link.clicked. A click
 * on a link that is not there changes nothing.
 */
@Injectable()
export class RecordClickHandler {
  async handle(decision: MessagingDecision<LinkClicksRecordedV1>): Promise<Answer> {
    for (const click of decision.data.clicks) await this.click(decision, click);
    return RECORDED;
  }

  private async click(decision: MessagingDecision<LinkClicksRecordedV1>, click: LinkClickV1): Promise<void> {
    const { workspaceId, store } = decision;
    const link = await store.link(workspaceId, click.message_id, click.link_index);
    if (link === null) return;
    const taken = await store.take(workspaceId, click.message_id, { sendJob: false, timers: [] });
    if (taken === null) return;
    const { message, contact } = taken;
    const clickedAt = new Date(click.clicked_at);
    const sentAt = message.sentAt === null ? null : new Date(message.sentAt);
    const verdict = classifyClick({ clickedAt, sentAt, userAgent: click.user_agent });
    await store.countClick(link, { bot: verdict.bot, at: clickedAt });
    if (verdict.bot || link.firstClickedAt !== null) return;
    decision.fact(LINK_FACT_TYPES.linkClicked, message.id, (): LinkClickedV1 => ({
      message_id: message.id,
      url: link.url,
      link_index: link.linkIndex,
      contact: contactBlock(message.contactId === null ? null : Number(message.contactId), contact),
      channel: message.channelType,
      workflow: message.workflow,
      campaign_id: message.campaignId === null ? null : Number(message.campaignId),
      clicked_at: clickedAt.toISOString(),
      user_agent: click.user_agent,
    }));
  }
}
