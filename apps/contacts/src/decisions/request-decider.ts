import { answerRequest, recordContext, type Answer } from '@cms/kafka';
import { type DecodedRecord } from '@cms/contracts';
import { Inject, Injectable } from '@nestjs/common';

import { CONTACTS_CONFIG, type ContactsConfig } from '../config';
import { SqlContactStore, type ContactStore } from '../contacts/contact-store';
import { ContactsDecision } from './decision';

/**
 * The one way contacts decides a request record, whether on its own or as part of a chunk: a
 * ContactsDecision over `store` (statements in the record's transaction unless a chunk passes its
 * state), answered by the shared frame as contacts, facts on its fact topic.
 */
@Injectable()
export class RequestDecider {
  constructor(@Inject(CONTACTS_CONFIG) private readonly config: ContactsConfig) {}

  decide<T>(
    record: DecodedRecord<T>,
    rawContext: unknown,
    handler: (decision: ContactsDecision<T>) => Promise<Answer>,
    store?: ContactStore,
  ): Promise<void> {
    return this.run(record, rawContext, handler, { outcomes: this.config.topics.outcomes }, store);
  }

  /** A request another service appended, which nobody waits for: its facts, and no outcome. */
  decideUnanswered<T>(
    record: DecodedRecord<T>,
    rawContext: unknown,
    handler: (decision: ContactsDecision<T>) => Promise<Answer>,
    store?: ContactStore,
  ): Promise<void> {
    return this.run(record, rawContext, handler, {}, store);
  }

  private async run<T>(
    record: DecodedRecord<T>,
    rawContext: unknown,
    handler: (decision: ContactsDecision<T>) => Promise<Answer>,
    answers: { outcomes?: string },
    store?: ContactStore,
  ): Promise<void> {
    const context = recordContext(rawContext);
    const decision = new ContactsDecision(
      record,
      context.manager,
      store ?? new SqlContactStore(context.manager),
      !context.replaying,
    );
    // Requests for other services go in the same transaction as the decision's facts.
    const topics = { facts: this.config.topics.contacts, requests: this.config.topics.requests, ...answers };
    await answerRequest(decision, context, topics, handler);
  }
}
