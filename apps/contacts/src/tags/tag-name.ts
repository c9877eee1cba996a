import { ContactsErrorCode, ContactsException } from '../decisions/contacts.exception';
import type { TagRepository } from './tag.repository';

/** Tag names are unique within a workspace, so a name identifies a tag in filters and imports. */
export async function assertTagNameFree(
  tags: TagRepository,
  workspaceId: number,
  name: string,
  ownId?: number,
): Promise<void> {
  const holder = await tags.findByName(workspaceId, name);
  if (holder && holder.id !== ownId) {
    throw new ContactsException({
      code: ContactsErrorCode.TagNameTaken,
      detail: `A tag named ${JSON.stringify(name)} already exists (tag ${holder.id}).`,
      pointer: '/data/attributes/name',
    });
  }
}
