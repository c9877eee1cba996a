import { contactViewColumns } from '@cms/service-kit';
import { Entity, Index } from 'typeorm';

/**
 * The messaging service's own view of a contact, from the contact snapshots of cms.contacts.v1: what
 * sending needs (recipient addresses, consent, channel links, the fields templates read).
 */
@Entity({ name: 'contacts' })
@Index('contacts_workspace_phone', ['workspaceId', 'phone'])
@Index('contacts_workspace_email', ['workspaceId', 'email'])
export class ContactEntity extends contactViewColumns() {}
