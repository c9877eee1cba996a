import type { ChannelType, NotificationDefinition, NotificationReferencesV1 } from '@cms/contracts';
import { Inject, Injectable } from '@nestjs/common';

import type { Principal } from '../auth/principal';
import { readReferences, routeReferences, type Reference } from '../proxy/references';
import { ServiceApi } from '../proxy/service-api';
import { UpstreamProxy } from '../proxy/upstream.proxy';
import { WritePathService } from '../write-path/write-path.service';

/** The broadcasts service, as the catalog names it among the gateway's upstreams. */
export const BROADCASTS = 'broadcasts';

const AT = '/data/attributes';

/** Notifications and their sends (extensions §13): decided and read by the broadcasts service. */
@Injectable()
export class BroadcastsApi extends ServiceApi {
  constructor(
    @Inject(WritePathService) writePath: WritePathService,
    @Inject(UpstreamProxy) proxy: UpstreamProxy,
  ) {
    super(BROADCASTS, writePath, proxy);
  }

  /**
   * What the record of a notification's create or change carries about what it names: the template's
   * name and channel type, the audience's name, each read from its owner when the body sets it. A
   * template, audience, or route step channel or template the workspace does not have is refused with
   * 422 at its pointer, and so is a route step's template of another channel type (readReferences).
   */
  async referencesOf(
    caller: Principal,
    definition: Partial<NotificationDefinition>,
  ): Promise<NotificationReferencesV1> {
    const template: Reference | undefined =
      definition.template_id === undefined
        ? undefined
        : {
            service: 'messaging',
            path: `templates/${definition.template_id}`,
            pointer: `${AT}/template_id`,
            detail: `Template ${definition.template_id} was not found.`,
          };
    const audience: Reference | undefined =
      definition.target_group_id === undefined
        ? undefined
        : {
            service: 'segments',
            path: `audiences/${definition.target_group_id}`,
            pointer: `${AT}/target_group_id`,
            detail: `Audience ${definition.target_group_id} was not found.`,
          };
    const references = [template, audience].filter((reference) => reference !== undefined);
    const found = await readReferences(this.proxy, caller, [
      ...references,
      ...routeReferences(definition.route ?? [], AT),
    ]);
    const templateRead = template && found.get(template);
    const audienceRead = audience && found.get(audience);
    return {
      ...(templateRead
        ? {
            template_name: templateRead['name'] as string,
            template_channel: templateRead['channel'] as ChannelType,
          }
        : {}),
      ...(audienceRead ? { target_group_name: audienceRead['name'] as string } : {}),
    };
  }

  /**
   * Refuses (422 at `notification_id`) a test send of a notification the workspace does not have
   * before its test contact is made: a mistyped id must not leave a contact behind.
   */
  async notificationMustExist(caller: Principal, notificationId: number): Promise<void> {
    await readReferences(this.proxy, caller, [
      {
        service: BROADCASTS,
        path: `notifications/${notificationId}`,
        pointer: `${AT}/notification_id`,
        detail: `Notification ${notificationId} was not found.`,
      },
    ]);
  }

  /** Why a template cannot be deleted (extensions §13): the notifications that send it. */
  templateUse(caller: Principal, templateId: number): Promise<string | undefined> {
    return this.usedBy(
      caller,
      `templates/${templateId}/notifications`,
      `Template ${templateId}`,
      'notification',
    );
  }

  /** Why an audience cannot be deleted (extensions §13): the notifications that send to it. */
  audienceUse(caller: Principal, audienceId: number): Promise<string | undefined> {
    return this.usedBy(
      caller,
      `audiences/${audienceId}/notifications`,
      `Audience ${audienceId}`,
      'notification',
    );
  }
}
