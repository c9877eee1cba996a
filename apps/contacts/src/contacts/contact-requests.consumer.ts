import {
  CONTACT_REQUEST_TYPES,
  IMPORT_ROWS_REQUEST_TYPE,
  INBOUND_SENDER_REQUEST_TYPE,
  type ContactImportRowsRequestedV1,
  type ContactInboundSenderRequestedV1,
  type ContactBatchUpsertRequestedV1,
  type ContactChannelLinkRequestedV1,
  type ContactConsentChangeRequestedV1,
  type ContactIngestRequestedV1,
  type ContactUpdateRequestedV1,
  type ContactUpsertRequestedV1,
  type DecodedRecord,
} from '@cms/contracts';
import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';

import { RequestDecider } from '../decisions/request-decider';
import { ChangeConsentHandler } from './change-consent/change-consent.handler';
import { BatchUpsertContactsHandler } from './batch-upsert-contacts/batch-upsert-contacts.handler';
import { ImportRowsHandler } from './import-rows/import-rows.handler';
import { InboundSenderHandler } from './inbound-sender/inbound-sender.handler';
import { IngestContactHandler } from './ingest-contact/ingest-contact.handler';
import { LinkChannelHandler } from './link-channel/link-channel.handler';
import { UpdateContactHandler } from './update-contact/update-contact.handler';
import { UpsertContactHandler } from './upsert-contact/upsert-contact.handler';

/** Hands each contact request record to its use case; the decider answers it. */
@Controller()
export class ContactRequestsConsumer {
  constructor(
    @Inject(RequestDecider) private readonly decider: RequestDecider,
    @Inject(UpsertContactHandler) private readonly upsert: UpsertContactHandler,
    @Inject(BatchUpsertContactsHandler) private readonly batch: BatchUpsertContactsHandler,
    @Inject(UpdateContactHandler) private readonly update: UpdateContactHandler,
    @Inject(LinkChannelHandler) private readonly link: LinkChannelHandler,
    @Inject(IngestContactHandler) private readonly ingest: IngestContactHandler,
    @Inject(ChangeConsentHandler) private readonly consent: ChangeConsentHandler,
    @Inject(InboundSenderHandler) private readonly inboundSender: InboundSenderHandler,
    @Inject(ImportRowsHandler) private readonly importRows: ImportRowsHandler,
  ) {}

  @EventPattern(CONTACT_REQUEST_TYPES.upsert)
  upsertContact(
    @Payload() record: DecodedRecord<ContactUpsertRequestedV1>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.decider.decide(record, context, (decision) => this.upsert.handle(decision));
  }

  @EventPattern(CONTACT_REQUEST_TYPES.batchUpsert)
  batchUpsertContacts(
    @Payload() record: DecodedRecord<ContactBatchUpsertRequestedV1>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.decider.decide(record, context, (decision) => this.batch.handle(decision));
  }

  @EventPattern(CONTACT_REQUEST_TYPES.update)
  updateContact(
    @Payload() record: DecodedRecord<ContactUpdateRequestedV1>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.decider.decide(record, context, (decision) => this.update.handle(decision));
  }

  @EventPattern(CONTACT_REQUEST_TYPES.channelLink)
  linkChannel(
    @Payload() record: DecodedRecord<ContactChannelLinkRequestedV1>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.decider.decide(record, context, (decision) => this.link.handle(decision));
  }

  @EventPattern(CONTACT_REQUEST_TYPES.ingest)
  ingestContact(
    @Payload() record: DecodedRecord<ContactIngestRequestedV1>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.decider.decide(record, context, (decision) => this.ingest.handle(decision));
  }

  /** From the messaging service, not a client: no outcome. */
  @EventPattern(CONTACT_REQUEST_TYPES.consentChange)
  changeConsent(
    @Payload() record: DecodedRecord<ContactConsentChangeRequestedV1>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.decider.decideUnanswered(record, context, (decision) => this.consent.handle(decision));
  }

  /** From the messaging service, not a client: no outcome; it answers with a request of its own. */
  @EventPattern(INBOUND_SENDER_REQUEST_TYPE)
  matchInboundSender(
    @Payload() record: DecodedRecord<ContactInboundSenderRequestedV1>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.decider.decideUnanswered(record, context, (decision) => this.inboundSender.handle(decision));
  }

  /**
   * From the segments service's import worker, not a client: no outcome; its answer is a fact. Such a
   * record is decided by ContactsChunk, against state loaded for all its rows at once; this is the
   * same decision statement by statement.
   */
  @EventPattern(IMPORT_ROWS_REQUEST_TYPE)
  decideImportRows(
    @Payload() record: DecodedRecord<ContactImportRowsRequestedV1>,
    @Ctx() context: unknown,
  ): Promise<void> {
    return this.decider.decideUnanswered(record, context, (decision) => this.importRows.handle(decision));
  }
}
