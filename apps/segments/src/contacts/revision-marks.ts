import type { EntityManager } from 'typeorm';

/**
 * The revisions a run of records moved each workspace's view to: the last offset of cms.contacts.v1
 * (contacts, tags, events) and of cms.messaging.v1 (suppressions) that changed it. Written once per
 * run; GREATEST keeps each stream's mark whichever consumer writes last.
 */
export class RevisionMarks {
  private readonly marks = new Map<number, { contacts: number; suppressions: number }>();

  contacts(workspaceId: number, revision: number): void {
    const mark = this.of(workspaceId);
    mark.contacts = Math.max(mark.contacts, revision);
  }

  suppressions(workspaceId: number, revision: number): void {
    const mark = this.of(workspaceId);
    mark.suppressions = Math.max(mark.suppressions, revision);
  }

  async write(manager: EntityManager): Promise<void> {
    if (this.marks.size === 0) return;
    const workspaces = [...this.marks.keys()].sort((a, b) => a - b);
    await manager.query(
      `INSERT INTO workspace_revisions (workspace_id, contacts_revision, suppressions_revision)
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[])
       ON CONFLICT (workspace_id) DO UPDATE SET
         contacts_revision = GREATEST(workspace_revisions.contacts_revision, EXCLUDED.contacts_revision),
         suppressions_revision = GREATEST(workspace_revisions.suppressions_revision, EXCLUDED.suppressions_revision)`,
      [
        workspaces,
        workspaces.map((id) => this.marks.get(id)!.contacts),
        workspaces.map((id) => this.marks.get(id)!.suppressions),
      ],
    );
  }

  private of(workspaceId: number): { contacts: number; suppressions: number } {
    let mark = this.marks.get(workspaceId);
    if (!mark) {
      // -1: nothing of that stream yet (offsets start at 0).
      mark = { contacts: -1, suppressions: -1 };
      this.marks.set(workspaceId, mark);
    }
    return mark;
  }
}
