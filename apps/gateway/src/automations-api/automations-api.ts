import { botReferences, type BotDefinition, type WorkflowDefinition } from '@cms/contracts';
import { Inject, Injectable } from '@nestjs/common';

import type { Principal } from '../auth/principal';
import { readReferences, routeReferences, type Reference } from '../proxy/references';
import { ServiceApi } from '../proxy/service-api';
import { UpstreamProxy } from '../proxy/upstream.proxy';
import { WritePathService } from '../write-path/write-path.service';

/** The automations service, as the catalog names it among the gateway's upstreams. */
export const AUTOMATIONS = 'automations';

const AT = '/data/attributes';

/** The tags a step adds or removes, and the channels and templates of a `send` step's route. */
function referencesOf(steps: WorkflowDefinition['steps'] | undefined): Reference[] {
  return (steps ?? []).flatMap((step, i): Reference[] => {
    const at = `${AT}/steps/${i}`;
    if (step.type === 'send') return routeReferences(step.route, at);
    if (step.type !== 'update_contact') return [];
    return (['add_tags', 'remove_tags'] as const).flatMap((field) =>
      (step[field] ?? []).map((tagId, k): Reference => ({
        service: 'contacts',
        path: `tags/${tagId}`,
        pointer: `${at}/${field}/${k}`,
        detail: `Tag ${tagId} was not found.`,
      })),
    );
  });
}

/** The audience and channel a bot names, and the templates and tags of its flow steps, in body order. */
function botReferencesOf(bot: Partial<BotDefinition>): Reference[] {
  const { targetGroupId, channelId, templates, tags } = botReferences(bot);
  const references: Reference[] = [];
  if (targetGroupId !== null) {
    references.push({
      service: 'segments',
      path: `audiences/${targetGroupId}`,
      pointer: `${AT}/target_group_id`,
      detail: `Audience ${targetGroupId} was not found.`,
    });
  }
  if (channelId !== null) {
    references.push({
      service: 'messaging',
      path: `channels/${channelId}`,
      pointer: `${AT}/settings/channel_id`,
      detail: `Channel ${channelId} was not found.`,
    });
  }
  for (const template of templates) {
    references.push({
      service: 'messaging',
      path: `templates/${template.id}`,
      pointer: template.pointer,
      detail: `Template ${template.id} was not found.`,
    });
  }
  for (const tag of tags) {
    references.push({
      service: 'contacts',
      path: `tags/${tag.id}`,
      pointer: tag.pointer,
      detail: `Tag ${tag.id} was not found.`,
    });
  }
  return references;
}

/** Workflows and bots (extensions §12): decided and read by the automations service. */
@Injectable()
export class AutomationsApi extends ServiceApi {
  constructor(
    @Inject(WritePathService) writePath: WritePathService,
    @Inject(UpstreamProxy) proxy: UpstreamProxy,
  ) {
    super(AUTOMATIONS, writePath, proxy);
  }

  /**
   * Refuses (422 at its pointer) a tag, channel or template a step names that the workspace does not
   * have, and a template of another channel type than its route step (readReferences).
   */
  async referencesMustExist(
    caller: Principal,
    steps: WorkflowDefinition['steps'] | undefined,
  ): Promise<void> {
    await readReferences(this.proxy, caller, referencesOf(steps));
  }

  /**
   * Refuses (422 at its pointer) an audience (`target_group_id`), a channel (`settings.channel_id`), or a
   * flow step's template or tag that the workspace does not have; a PATCH's changes name only what was sent.
   */
  async botReferencesMustExist(caller: Principal, bot: Partial<BotDefinition>): Promise<void> {
    await readReferences(this.proxy, caller, botReferencesOf(bot));
  }

  /** Why a template cannot be deleted (extensions §9): the workflows whose `send` step names it. */
  templateUse(caller: Principal, templateId: number): Promise<string | undefined> {
    return this.usedBy(caller, `templates/${templateId}/workflows`, `Template ${templateId}`, 'workflow');
  }

  /** Why a template cannot be deleted: the bots whose flow has a `message` step that sends it. */
  templateBotUse(caller: Principal, templateId: number): Promise<string | undefined> {
    return this.usedBy(caller, `templates/${templateId}/bots`, `Template ${templateId}`, 'bot');
  }

  /** Why an audience cannot be deleted: the bots whose `target_group_id` names it. */
  audienceBotUse(caller: Principal, audienceId: number): Promise<string | undefined> {
    return this.usedBy(caller, `audiences/${audienceId}/bots`, `Audience ${audienceId}`, 'bot');
  }

  /** Why a channel cannot be deleted: the bots whose `settings.channel_id` names it. */
  channelBotUse(caller: Principal, channelId: number): Promise<string | undefined> {
    return this.usedBy(caller, `channels/${channelId}/bots`, `Channel ${channelId}`, 'bot');
  }
}
