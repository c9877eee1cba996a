import { Module } from '@nestjs/common';

import { RequestDecider } from '../decisions/request-decider';
import { BatchUpsertContactsHandler } from './batch-upsert-contacts/batch-upsert-contacts.handler';
import { ChangeConsentHandler } from './change-consent/change-consent.handler';
import { ContactRequestsConsumer } from './contact-requests.consumer';
import { ContactWriter } from './contact-writer';
import { ImportRowsHandler } from './import-rows/import-rows.handler';
import { InboundSenderHandler } from './inbound-sender/inbound-sender.handler';
import { IngestContactHandler } from './ingest-contact/ingest-contact.handler';
import { LinkChannelHandler } from './link-channel/link-channel.handler';
import { ContactsController } from './read-contacts/contacts.controller';
import { UpdateContactHandler } from './update-contact/update-contact.handler';
import { UpsertContactHandler } from './upsert-contact/upsert-contact.handler';

@Module({
  controllers: [ContactsController, ContactRequestsConsumer],
  providers: [
    RequestDecider,
    ContactWriter,
    UpsertContactHandler,
    BatchUpsertContactsHandler,
    UpdateContactHandler,
    LinkChannelHandler,
    ChangeConsentHandler,
    IngestContactHandler,
    InboundSenderHandler,
    ImportRowsHandler,
  ],
  exports: [
    RequestDecider,
    ContactWriter,
    UpsertContactHandler,
    UpdateContactHandler,
    BatchUpsertContactsHandler,
    ImportRowsHandler,
  ],
})
export class ContactsModule {}
