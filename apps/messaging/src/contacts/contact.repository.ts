import type { EntityManager, Repository } from 'typeorm';

import { ContactEntity } from './contact.entity';

/** The contact view as sending and rendering read it. */
export class ContactRepository {
  private readonly contacts: Repository<ContactEntity>;

  constructor(manager: EntityManager) {
    this.contacts = manager.getRepository(ContactEntity);
  }

  /** The contact, when the view has it in the workspace. */
  findInWorkspace(workspaceId: number, id: number): Promise<ContactEntity | null> {
    return this.contacts.findOneBy({ id, workspaceId });
  }
}
