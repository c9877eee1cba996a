import type { WorkflowDefinition } from '@cms/contracts';
import { JsonApiException } from '@cms/http';
import { Inject, Injectable } from '@nestjs/common';

import type { Principal } from '../auth/principal';
import { ServiceApi } from '../proxy/service-api';
import { UpstreamProxy } from '../proxy/upstream.proxy';
import { WritePathService } from '../write-path/write-path.service';

/** The automations service, as the catalog names it among the gateway's upstreams. */
export const AUTOMATIONS = 'automations';

interface Issue {
  detail: string;
  source: { pointer: string };
}

/** A reference a step makes to another service's resource, and where in the body it is. */
interface Reference {
  service: 'contacts' | 'messaging';
  path: string;
  pointer: string;
  detail: string;
  /** For a template: the channel type its route step names, when it names one. */
  channel?: { type?: string; channelId?: number; pointer: string };
}

function referencesOf(steps: WorkflowDefinition['steps'] | undefined): Reference[] {
  const references: Reference[] = [];
  (steps ?? []).forEach((step, i) => {
    const at = `/data/attributes/steps/${i}`;
    if (step.type === 'update_contact') {
      for (const field of ['add_tags', 'remove_tags'] as const) {
        (step[field] ?? []).forEach((tagId, k) =>
          references.push({
            service: 'contacts',
            path: `tags/${tagId}`,
            pointer: `${at}/${field}/${k}`,
            detail: `Tag ${tagId} was not found.`,
          }),
        );
      }
    }
    if (step.type === 'send') {
      step.route.forEach((routeStep, j) => {
        const channelId = routeStep.channel_id ?? undefined;
        if (channelId !== undefined) {
          references.push({
            service: 'messaging',
            path: `channels/${channelId}`,
            pointer: `${at}/route/${j}/channel_id`,
            detail: `Channel ${channelId} was not found.`,
          });
        }
        references.push({
          service: 'messaging',
          path: `templates/${routeStep.template_id}`,
          pointer: `${at}/route/${j}/template_id`,
          detail: `Template ${routeStep.template_id} was not found.`,
          channel: {
            ...(routeStep.channel ? { type: routeStep.channel } : {}),
            ...(channelId !== undefined ? { channelId } : {}),
            pointer: `${at}/route/${j}/template_id`,
          },
        });
      });
    }
  });
  return references;
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
   * have, and a template of another channel type than its route step: asked of their owners before
   * the write enters the log, so deciding it reads nothing another topic feeds and a rebuild decides
   * it the same way.
   */
  async referencesMustExist(
    caller: Principal,
    steps: WorkflowDefinition['steps'] | undefined,
  ): Promise<void> {
    const references = referencesOf(steps);
    const answers = new Map<string, Promise<Record<string, unknown> | null>>();
    const resource = (service: string, path: string): Promise<Record<string, unknown> | null> => {
      const key = `${service} ${path}`;
      let answer = answers.get(key);
      if (!answer) {
        // The proxy throws the service's refusals: a 404 is the answer sought, anything else goes on up.
        answer = this.proxy.get(service, path, '', caller.workspaceId).then(
          (read) => (read.body as { data: Record<string, unknown> }).data,
          (error: unknown) => {
            if (error instanceof JsonApiException && error.getStatus() === 404) return null;
            throw error;
          },
        );
        answers.set(key, answer);
      }
      return answer;
    };
    const issues: Issue[] = [];
    // Every read asked at once (each resource once), then the answers gone through in body order.
    const reads = references.map((reference) => resource(reference.service, reference.path));
    // A refusal is thrown where its read is awaited; until then it must not count as unhandled.
    for (const read of reads) read.catch(() => undefined);
    for (const [index, reference] of references.entries()) {
      const found = await reads[index]!;
      if (!found) {
        issues.push({ detail: reference.detail, source: { pointer: reference.pointer } });
        continue;
      }
      if (!reference.channel) continue;
      const channel =
        reference.channel.channelId !== undefined
          ? await resource('messaging', `channels/${reference.channel.channelId}`)
          : null;
      const type = (channel?.['type'] as string | undefined) ?? reference.channel.type;
      if (type !== undefined && found['channel'] !== type) {
        issues.push({
          detail: `Template ${String(found['id'])} is for ${String(found['channel'])}, not ${type}.`,
          source: { pointer: reference.channel.pointer },
        });
      }
    }
    if (issues.length > 0) throw JsonApiException.validation(issues.slice(0, 100));
  }

  /**
   * Refuses (422) the delete of a template a workflow's `send` step names (extensions §9), asked of the
   * automations service before the delete enters the log.
   */
  async templateMustBeUnused(caller: Principal, templateId: number): Promise<void> {
    const read = await this.proxy.get(
      AUTOMATIONS,
      `templates/${templateId}/workflows`,
      '',
      caller.workspaceId,
    );
    const users = (read.body as { data: Array<{ id: number; name: string }> }).data;
    if (users.length === 0) return;
    const named = users
      .slice(0, 10)
      .map((workflow) => `${workflow.id} (${JSON.stringify(workflow.name)})`)
      .join(', ');
    throw JsonApiException.validation([
      {
        detail: `Template ${templateId} is used by workflow ${named}${users.length > 10 ? ' and others' : ''}; change or delete ${users.length === 1 ? 'it' : 'them'} first.`,
      },
    ]);
  }
}
