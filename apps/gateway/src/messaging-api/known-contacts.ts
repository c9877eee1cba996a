import { Inject, Injectable } from '@nestjs/common';
import type DataLoader from 'dataloader';

import { unknownContacts } from '../contacts-api/contacts-api';
import { batchedReads } from '../proxy/batched-reads';
import { UpstreamProxy } from '../proxy/upstream.proxy';

/** Contacts remembered as known, at most (the oldest forgotten first): about 5 MiB. */
const MAX_KNOWN_CONTACTS = 50_000;

/** Ids asked of the contacts service in one read at most (its `contacts/unknown` takes 20,000). */
const MAX_IDS_PER_READ = 1_000;

interface Asked {
  workspaceId: number;
  contactId: number;
}

/**
 * Whether a workspace holds a contact, as the contacts service says: a send names its contact and is
 * refused when the workspace does not hold it. Contacts are never removed, so a contact once known
 * stays known and is not asked about again; a contact not found is asked about again every time (it
 * may be made meanwhile). The questions of many sends go to the contacts service together
 * (`contacts/unknown`, one statement there), a read per workspace (batchedReads).
 */
@Injectable()
export class KnownContacts {
  /** `workspace:contact`, in the order they became known. */
  private readonly known = new Set<string>();
  private readonly reads: DataLoader<Asked, boolean>;

  constructor(@Inject(UpstreamProxy) private readonly proxy: UpstreamProxy) {
    this.reads = batchedReads((asked) => this.read(asked), MAX_IDS_PER_READ);
  }

  /** True when the workspace holds the contact; rejects as a read of the contacts service does (503). */
  async holds(workspaceId: number, contactId: number): Promise<boolean> {
    const key = `${workspaceId}:${contactId}`;
    if (this.known.has(key)) return true;
    const found = await this.reads.load({ workspaceId, contactId });
    if (found) this.remember(key);
    return found;
  }

  private remember(key: string): void {
    if (this.known.size >= MAX_KNOWN_CONTACTS) this.known.delete(this.known.values().next().value!);
    this.known.add(key);
  }

  /** One `contacts/unknown` per workspace asked about; a workspace's failure fails its own questions. */
  private async read(asked: readonly Asked[]): Promise<Array<boolean | Error>> {
    const byWorkspace = new Map<number, Set<number>>();
    for (const { workspaceId, contactId } of asked) {
      const ids = byWorkspace.get(workspaceId) ?? new Set<number>();
      byWorkspace.set(workspaceId, ids.add(contactId));
    }
    const answers = new Map<number, Set<number> | Error>();
    await Promise.all(
      [...byWorkspace].map(async ([workspaceId, ids]) => {
        try {
          answers.set(workspaceId, await unknownContacts(this.proxy, workspaceId, [...ids]));
        } catch (error) {
          answers.set(workspaceId, error instanceof Error ? error : new Error(String(error)));
        }
      }),
    );
    return asked.map(({ workspaceId, contactId }) => {
      const unknown = answers.get(workspaceId)!;
      return unknown instanceof Error ? unknown : !unknown.has(contactId);
    });
  }
}
