import type { WorkflowDefinition } from '@cms/contracts';
import { Inject, Injectable } from '@nestjs/common';

import type { Principal } from '../auth/principal';
import { readReferences, routeReferences, type Reference } from '../proxy/references';
import { ServiceApi } from '../proxy/service-api';
import { UpstreamProxy } from '../proxy/upstream.proxy';
import { WritePathService } from '../write-path/write-path.service';

/** The automations service, as the catalog names it among the gateway's upstreams. */
export const AUTOMATIONS = 'automations';

/** The tags a step adds or removes, and the channels and templates of a `send` step's route. */
function referencesOf(steps: WorkflowDefinition['steps'] | undefined): Reference[] {
  return (steps ?? []).flatMap((step, i): Reference[] => {
    const at = `/data/attributes/steps/${i}`;
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

/** Workflows (extensions §12): decided and read by the automations service. */
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

  /** Why a template cannot be deleted (extensions §9): the workflows whose `send` step names it. */
  templateUse(caller: Principal, templateId: number): Promise<string | undefined> {
    return this.usedBy(caller, `templates/${templateId}/workflows`, `Template ${templateId}`, 'workflow');
  }
}
