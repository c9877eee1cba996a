import type { Decision } from '@cms/kafka';

import { ChannelRepository } from '../channels/channel.repository';
import type { AlertRuleEntity } from './alert.entity';
import type { AlertFieldProblem } from './alerts.exception';

/** A scope's channel must be one of the workspace's (workflows and campaigns live in other services). */
export async function scopeProblems(
  decision: Decision<unknown>,
  scope: AlertRuleEntity['scope'],
): Promise<AlertFieldProblem[]> {
  if (scope.channel_id === undefined) return [];
  const channel = await new ChannelRepository(decision.manager).findInWorkspace(
    decision.workspaceId,
    scope.channel_id,
  );
  if (channel !== null) return [];
  return [
    {
      pointer: '/data/attributes/scope/channel_id',
      detail: `Channel ${scope.channel_id} was not found.`,
    },
  ];
}
