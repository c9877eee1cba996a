import { ContactView, contactViewConsumer } from '@cms/service-kit';

import { CONTACTS_TRANSPORT } from '../transports';
import { ContactEntity } from './contact.entity';

/** The snapshots and channel links of cms.contacts.v1, as sending reads them (no tags, no events). */
export const CONTACT_VIEW = new ContactView(ContactEntity);

export const CONTACT_VIEW_CONSUMER = contactViewConsumer(CONTACT_VIEW, CONTACTS_TRANSPORT);
