import { createEnvelope, type DecodedRecord } from '@cms/contracts';
import { RequestRefusedError } from '@cms/kafka';
import type { EntityManager } from 'typeorm';

import type { MessageStore } from '../messages/message.repository';
import { MessagingDecision } from './messaging-decision';
import { MessagingException } from './messaging.exception';

const record: DecodedRecord = {
  ...createEnvelope({
    type: 'provider-callback.received',
    source: 'gateway',
    workspaceid: '7',
    data: {},
    time: '2026-05-01T10:00:00.000Z',
  }),
  writtenVersion: 1,
};

/** Runs a savepoint's work as it comes: these decisions write nothing. */
const manager = { transaction: (work: () => Promise<unknown>) => work() } as unknown as EntityManager;

/** No statement is made: the store is never asked, and its own undo is the savepoint's. */
const store = {} as MessageStore;

function decision(live = true): MessagingDecision {
  return new MessagingDecision(record, manager, store, live);
}

describe('MessagingDecision', () => {
  it('makes a request record derived from the record and its purpose, once per purpose', () => {
    const first = decision();
    first.request('contact.consent-change.requested', '5', ['opt-out', 5, 'sms'], { contact_id: 5 });
    first.request('contact.consent-change.requested', '5', ['opt-out', 5, 'sms'], { contact_id: 5 });
    first.request('contact.consent-change.requested', '6', ['opt-out', 6, 'sms'], { contact_id: 6 });
    const again = decision();
    again.request('contact.consent-change.requested', '5', ['opt-out', 5, 'sms'], { contact_id: 5 });
    expect(first.appendedRequests).toHaveLength(2);
    expect(first.appendedRequests[0]).toMatchObject({
      id: again.appendedRequests[0]!.id,
      type: 'contact.consent-change.requested',
      source: 'messaging',
      workspaceid: '7',
      subject: '5',
      causationid: record.id,
      correlationid: record.correlationid,
      time: record.time,
      data: { contact_id: 5 },
    });
    expect(first.appendedRequests[1]!.id).not.toBe(first.appendedRequests[0]!.id);
  });

  it('makes none below the replay horizon', () => {
    const replayed = decision(false);
    replayed.request('contact.consent-change.requested', '5', ['opt-out'], { contact_id: 5 });
    expect(replayed.appendedRequests).toEqual([]);
  });

  it('takes back the requests of a refused part, and keeps those made before it', async () => {
    const made = decision();
    made.request('contact.consent-change.requested', '1', ['before'], {});
    const refused = await made.attempt(() => {
      made.request('contact.consent-change.requested', '2', ['refused'], {});
      return Promise.reject(MessagingException.channelNotFound(3));
    });
    expect(refused).toBeInstanceOf(RequestRefusedError);
    expect(made.appendedRequests.map((request) => request.subject)).toEqual(['1']);
  });
});
