/**
 * Asks the segments service which contacts are members of an audience now (extensions §12:
 * `target_group_id` limits a bot to the audience's members as they are when a conversation would
 * start). What it answers is written into the bot input, so a rebuild never asks again.
 */
export class AudienceMembers {
  constructor(
    private readonly segmentsUrl: string,
    private readonly timeoutMs = 10_000,
  ) {}

  private async get(workspaceId: number, path: string): Promise<Record<string, unknown> | null> {
    const response = await fetch(`${this.segmentsUrl}/internal/v1/${path}`, {
      headers: { 'x-workspace-id': String(workspaceId), accept: 'application/json' },
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    // An audience deleted since (or of another workspace) has no members.
    if (response.status === 404) return null;
    if (!response.ok) throw new Error(`segments answered ${response.status} for ${path}`);
    return ((await response.json()) as { data: Record<string, unknown> }).data;
  }

  /** Whether the contact is a member of each audience, by audience id. */
  async memberships(
    workspaceId: number,
    contactId: number,
    audienceIds: readonly number[],
  ): Promise<Record<string, boolean>> {
    const memberships: Record<string, boolean> = {};
    for (const audienceId of audienceIds) {
      const data = await this.get(workspaceId, `audiences/${audienceId}/members?contact_ids=${contactId}`);
      memberships[String(audienceId)] = ((data?.['member_ids'] as number[] | undefined) ?? []).includes(
        contactId,
      );
    }
    return memberships;
  }

  /** A page of the audience's members after `after`, ascending; `next` null after the last. */
  async page(
    workspaceId: number,
    audienceId: number,
    after: number,
    limit: number,
  ): Promise<{ contactIds: number[]; next: number | null } | null> {
    const data = await this.get(workspaceId, `audiences/${audienceId}/members?after=${after}&limit=${limit}`);
    if (data === null) return null;
    return {
      contactIds: data['contact_ids'] as number[],
      next: (data['next_after'] as number | null) ?? null,
    };
  }
}
