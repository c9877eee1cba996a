import { Module } from '@nestjs/common';

import { ContactsChunk } from '../chunk/contacts-chunk';
import { ContactsModule } from '../contacts/contacts.module';
import { EventRequestsConsumer } from './event-requests.consumer';
import { EventsController } from './read-events/events.controller';
import { RecordEventHandler } from './record-event/record-event.handler';

@Module({
  imports: [ContactsModule],
  controllers: [EventsController, EventRequestsConsumer],
  providers: [RecordEventHandler, ContactsChunk],
})
export class EventsModule {}
