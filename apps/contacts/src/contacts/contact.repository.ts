import type { LinkChannel } from '@cms/contracts';
import type { SqlWindow } from '@cms/http';
import { idFromDatabase } from '@cms/persistence';
import type { EntityManager, Repository } from 'typeorm';

import { ConsentChangeEntity } from './consent-change.entity';
import { ContactChannelEntity } from './contact-channel.entity';
import { ContactEntity } from './contact.entity';

/** A tag as a contact shows it. */
export interface TagSummary {
  id: number;
  name: string;
  color: string | null;
}

/** A contact with what its resource shows beside its own columns. */
export interface ContactView {
  contact: ContactEntity;
  tags: TagSummary[];
  channels: ContactChannelEntity[];
}

export interface ContactFilters {
  phone?: string;
  email?: string;
  externalId?: string;
  /** The whole name, in any case. */
  name?: string;
  tagId?: number;
  tagName?: string;
  search?: string;
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * The contacts tables, seen through one EntityManager: the consumer's transaction when deciding,
 * the data source's own manager when reading.
 */
export class ContactRepository {
  constructor(private readonly manager: EntityManager) {}

  private get contacts(): Repository<ContactEntity> {
    return this.manager.getRepository(ContactEntity);
  }

  findOne(workspaceId: number, id: number): Promise<ContactEntity | null> {
    return this.contacts.findOneBy({ workspaceId, id });
  }

  findByPhone(workspaceId: number, phone: string): Promise<ContactEntity | null> {
    return this.contacts.findOneBy({ workspaceId, phone });
  }

  /** The oldest contact with the id, should several carry it. */
  findByExternalId(workspaceId: number, externalId: string): Promise<ContactEntity | null> {
    return this.contacts.findOne({ where: { workspaceId, externalId }, order: { id: 'ASC' } });
  }

  /** Emails match whatever their case. */
  findByEmail(workspaceId: number, email: string): Promise<ContactEntity | null> {
    return this.contacts
      .createQueryBuilder('c')
      .where('c.workspace_id = :workspaceId', { workspaceId })
      .andWhere('lower(c.email) = lower(:email)', { email })
      .orderBy('c.id', 'ASC')
      .limit(1)
      .getOne();
  }

  async recordConsentChanges(changes: ConsentChangeEntity[]): Promise<void> {
    if (changes.length > 0) await this.manager.getRepository(ConsentChangeEntity).insert(changes);
  }

  channelHolder(
    workspaceId: number,
    channel: LinkChannel,
    externalId: string,
  ): Promise<ContactChannelEntity | null> {
    return this.manager.getRepository(ContactChannelEntity).findOneBy({ workspaceId, channel, externalId });
  }

  channelLink(contactId: number, channel: LinkChannel): Promise<ContactChannelEntity | null> {
    return this.manager.getRepository(ContactChannelEntity).findOneBy({ contactId, channel });
  }

  async unlinkChannel(link: ContactChannelEntity): Promise<void> {
    await this.manager
      .getRepository(ContactChannelEntity)
      .delete({ contactId: link.contactId, channel: link.channel });
  }

  async linkChannel(link: ContactChannelEntity): Promise<void> {
    await this.manager.getRepository(ContactChannelEntity).upsert(link, ['contactId', 'channel']);
  }

  async view(contact: ContactEntity): Promise<ContactView> {
    return (await this.views([contact]))[0]!;
  }

  /** Tags and channel links of many contacts in two queries. */
  async views(contacts: ContactEntity[]): Promise<ContactView[]> {
    if (contacts.length === 0) return [];
    const ids = contacts.map((contact) => contact.id);
    const tagRows: Array<{ contact_id: string; id: string; name: string; color: string | null }> =
      await this.manager.query(
        `SELECT ct.contact_id, t.id, t.name, t.color FROM contact_tags ct JOIN tags t ON t.id = ct.tag_id
       WHERE ct.contact_id = ANY($1::bigint[]) ORDER BY t.id`,
        [ids],
      );
    const tagsOf = new Map<number, TagSummary[]>();
    for (const { contact_id: contactId, id, name, color } of tagRows) {
      const list = tagsOf.get(idFromDatabase(contactId)) ?? [];
      list.push({ id: idFromDatabase(id), name, color });
      tagsOf.set(idFromDatabase(contactId), list);
    }
    const links = await this.manager
      .getRepository(ContactChannelEntity)
      .createQueryBuilder('l')
      .where('l.contact_id IN (:...ids)', { ids })
      .getMany();
    return contacts.map((contact) => ({
      contact,
      tags: tagsOf.get(contact.id) ?? [],
      channels: links.filter((link) => link.contactId === contact.id),
    }));
  }

  async list(
    workspaceId: number,
    filters: ContactFilters,
    window: SqlWindow,
  ): Promise<{ rows: ContactEntity[]; total: number }> {
    const query = this.contacts
      .createQueryBuilder('c')
      .where('c.workspace_id = :workspaceId', { workspaceId });
    if (filters.phone !== undefined) query.andWhere('c.phone = :phone', { phone: filters.phone });
    if (filters.email !== undefined)
      query.andWhere('lower(c.email) = lower(:email)', { email: filters.email });
    if (filters.externalId !== undefined)
      query.andWhere('c.external_id = :externalId', { externalId: filters.externalId });
    if (filters.name !== undefined) query.andWhere('lower(c.name) = lower(:name)', { name: filters.name });
    if (filters.tagId !== undefined) {
      query.andWhere(
        'EXISTS (SELECT 1 FROM contact_tags ct WHERE ct.contact_id = c.id AND ct.tag_id = :tagId)',
        { tagId: filters.tagId },
      );
    }
    if (filters.tagName !== undefined) {
      query.andWhere(
        `EXISTS (SELECT 1 FROM contact_tags ct JOIN tags t ON t.id = ct.tag_id
                 WHERE ct.contact_id = c.id AND t.name = :tagName)`,
        { tagName: filters.tagName },
      );
    }
    if (filters.search !== undefined) {
      query.andWhere('(c.name ILIKE :search OR c.email ILIKE :search OR c.phone ILIKE :search)', {
        search: likePattern(filters.search),
      });
    }
    const [rows, total] = await query
      .orderBy('c.id', 'ASC')
      .offset(window.offset)
      .limit(window.limit)
      .getManyAndCount();
    return { rows, total };
  }
}
