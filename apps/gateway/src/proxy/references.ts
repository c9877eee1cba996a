import type { RouteStep } from '@cms/contracts';
import { JsonApiException, type ValidationIssue } from '@cms/http';

import type { Principal } from '../auth/principal';
import type { UpstreamProxy } from './upstream.proxy';

/** A reference a write makes to another service's resource, and where in the body it is. */
export interface Reference {
  service: 'contacts' | 'messaging' | 'segments' | 'broadcasts';
  /** The resource's read, under the service's `internal/v1/`. */
  path: string;
  pointer: string;
  /** The refusal when the service does not hold it. */
  detail: string;
  /** For a template: the channel type its route step names, when it names one. */
  channel?: { type?: string; channelId?: number; pointer: string };
}

/**
 * The channel and template every step of a route names (extensions §9), at `<at>/route/<j>/…`: a
 * workflow's `send` step and a notification carry the same route, so they are checked alike.
 */
export function routeReferences(route: readonly RouteStep[], at: string): Reference[] {
  return route.flatMap((routeStep, j): Reference[] => {
    const channelId = routeStep.channel_id ?? undefined;
    const template: Reference = {
      service: 'messaging',
      path: `templates/${routeStep.template_id}`,
      pointer: `${at}/route/${j}/template_id`,
      detail: `Template ${routeStep.template_id} was not found.`,
      channel: {
        ...(routeStep.channel ? { type: routeStep.channel } : {}),
        ...(channelId !== undefined ? { channelId } : {}),
        pointer: `${at}/route/${j}/template_id`,
      },
    };
    if (channelId === undefined) return [template];
    return [
      {
        service: 'messaging',
        path: `channels/${channelId}`,
        pointer: `${at}/route/${j}/channel_id`,
        detail: `Channel ${channelId} was not found.`,
      },
      template,
    ];
  });
}

/**
 * Reads every resource `references` name from its owner and answers each by its reference; or refuses
 * (422 at their pointers) the ones the workspace does not have, and a template of another channel type
 * than its route step. Asked before the write enters the log, so deciding it reads nothing another
 * topic feeds and a rebuild decides it the same way. Every read is asked at once, each resource once.
 */
export async function readReferences(
  proxy: UpstreamProxy,
  caller: Principal,
  references: readonly Reference[],
): Promise<Map<Reference, Record<string, unknown>>> {
  const answers = new Map<string, Promise<Record<string, unknown> | null>>();
  const resource = (service: string, path: string): Promise<Record<string, unknown> | null> => {
    const key = `${service} ${path}`;
    let answer = answers.get(key);
    if (!answer) {
      // The proxy throws the service's refusals: a 404 is the answer sought, anything else goes on up.
      answer = proxy.get(service, path, '', caller.workspaceId).then(
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
  const issues: ValidationIssue[] = [];
  const found = new Map<Reference, Record<string, unknown>>();
  const reads = references.map((reference) => resource(reference.service, reference.path));
  // A refusal is thrown where its read is awaited; until then it must not count as unhandled.
  for (const read of reads) read.catch(() => undefined);
  // The answers gone through in body order, so the errors come in the order of the body.
  for (const [index, reference] of references.entries()) {
    const read = await reads[index]!;
    if (!read) {
      issues.push({ detail: reference.detail, source: { pointer: reference.pointer } });
      continue;
    }
    found.set(reference, read);
    if (!reference.channel) continue;
    const channel =
      reference.channel.channelId !== undefined
        ? await resource('messaging', `channels/${reference.channel.channelId}`)
        : null;
    const type = (channel?.['type'] as string | undefined) ?? reference.channel.type;
    if (type !== undefined && read['channel'] !== type) {
      issues.push({
        detail: `Template ${String(read['id'])} is for ${String(read['channel'])}, not ${type}.`,
        source: { pointer: reference.channel.pointer },
      });
    }
  }
  if (issues.length > 0) throw JsonApiException.validation(issues.slice(0, 100));
  return found;
}
