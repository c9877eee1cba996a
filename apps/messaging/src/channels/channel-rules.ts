import { MESSAGING_FACT_TYPES, type ChannelProvider, type ChannelType } from '@cms/contracts';
import type { Decision } from '@cms/kafka';

import { MessagingException } from '../decisions/messaging.exception';
import { requiredCredentials } from '../providers/provider';
import type { ChannelEntity } from './channel.entity';
import type { ChannelRepository } from './channel.repository';
import { channelFact } from './channel.resource';
import { openCredentials } from './channel-secrets';

const CREDENTIALS_POINTER = '/data/attributes/credentials';

/** Credentials a request carries sealed, opened; refused (422) when they cannot be. */
export function requestCredentials(
  sealed: string | null | undefined,
  secretsKey: string,
): Record<string, unknown> {
  try {
    return openCredentials(sealed ?? null, secretsKey);
  } catch {
    throw MessagingException.invalidFields([
      { pointer: CREDENTIALS_POINTER, detail: 'credentials could not be opened: they must be a JSON object' },
    ]);
  }
}

/** The provider must serve the type, and every credential it needs must be there (422 at each). */
export function checkProvider(
  provider: ChannelProvider,
  type: ChannelType,
  credentials: Record<string, unknown>,
): void {
  const problems = requiredCredentials(provider, type, credentials);
  if (problems.length > 0) throw MessagingException.invalidFields(problems);
}

/**
 * An object merged one level deep (extensions §8), as a JSON merge patch does it: a member set to null
 * is removed, any other value replaces the member.
 */
export function mergeOneLevel(
  current: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const merged = { ...current };
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete merged[name];
    else merged[name] = value;
  }
  return merged;
}

/**
 * Takes the default flag of the type from the workspace's current default (other than `channel`),
 * publishing the change; the caller then gives `channel` the flag. One default per type at a time.
 */
export async function takeDefaultFlag(
  decision: Decision<unknown>,
  channels: ChannelRepository,
  channel: Pick<ChannelEntity, 'id' | 'type'>,
): Promise<void> {
  const current = await channels.defaultOf(decision.workspaceId, channel.type);
  if (!current || current.id === channel.id) return;
  current.isDefault = false;
  current.updatedAt = decision.atDate;
  await channels.save(current);
  decision.fact(MESSAGING_FACT_TYPES.channelUpdated, String(current.id), () =>
    channelFact(current, decision.at),
  );
}
