import { contactViewColumns } from '@cms/service-kit';
import { Entity } from 'typeorm';

/**
 * The automations service's view of a contact, from cms.contacts.v1: every field a trigger filter,
 * a branch or a template reads. Runs do not read it directly: the event and timer inputs carry the
 * contact as it was, so a rebuild decides from the same contact.
 */
@Entity({ name: 'contacts' })
export class ContactEntity extends contactViewColumns('source', 'tagIds', 'createdAt') {}
