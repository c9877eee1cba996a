import { decideRequest, type Answer, type Decision } from '@cms/kafka';
import { type DecodedRecord } from '@cms/contracts';
import { Inject, Injectable } from '@nestjs/common';

import { CONTACTS_CONFIG, type ContactsConfig } from '../config';
import { SOURCE } from './decision';

/** Decides request records with the shared frame, answering as contacts and publishing on its fact topic. */
@Injectable()
export class RequestDecider {
  constructor(@Inject(CONTACTS_CONFIG) private readonly config: ContactsConfig) {}

  decide<T>(
    record: DecodedRecord<T>,
    rawContext: unknown,
    handler: (decision: Decision<T>) => Promise<Answer>,
  ): Promise<void> {
    return decideRequest(
      record,
      rawContext,
      SOURCE,
      { facts: this.config.topics.contacts, outcomes: this.config.topics.outcomes },
      handler,
    );
  }
}
