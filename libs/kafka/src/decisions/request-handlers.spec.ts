import {
  CONTACT_REQUEST_TYPES,
  requestEnvelope,
  TAG_REQUEST_TYPES,
  type ContactBatchUpsertRequestedV1,
  type DecodedRecord,
  type RequestRecord,
} from '@cms/contracts';
import { PATTERN_METADATA, TRANSPORT_METADATA } from '@nestjs/microservices/constants';

import type { Answer, Decision } from './request-decision';
import { DecidesRequest, handlerFor, type RequestHandlers } from './request-handlers';

const TRANSPORT = Symbol('requests');

class TagConsumer {
  @DecidesRequest(TAG_REQUEST_TYPES.delete, TRANSPORT)
  deleteTag(record: RequestRecord<typeof TAG_REQUEST_TYPES.delete>, _context: unknown): Promise<void> {
    return Promise.resolve(void record.data.tag_id);
  }

  // @ts-expect-error a batch payload under the tag delete type does not compile
  @DecidesRequest(TAG_REQUEST_TYPES.delete)
  misfiled(record: DecodedRecord<ContactBatchUpsertRequestedV1>, _context: unknown): Promise<void> {
    return Promise.resolve(void record.data.contacts);
  }
}

describe('DecidesRequest', () => {
  it('hands the request type to Nest as the event pattern, on the transport given', () => {
    const method = Object.getOwnPropertyDescriptor(TagConsumer.prototype, 'deleteTag')!.value as object;
    expect(Reflect.getMetadata(PATTERN_METADATA, method)).toEqual([TAG_REQUEST_TYPES.delete]);
    expect(Reflect.getMetadata(TRANSPORT_METADATA, method)).toBe(TRANSPORT);
  });
});

describe('handlerFor', () => {
  const deleted: Answer = { status: 204 };
  const handlers: RequestHandlers<typeof TAG_REQUEST_TYPES.delete | typeof TAG_REQUEST_TYPES.create> = {
    [TAG_REQUEST_TYPES.delete]: (decision) =>
      Promise.resolve({ ...deleted, resource: { id: decision.data.tag_id } }),
    [TAG_REQUEST_TYPES.create]: (decision) =>
      Promise.resolve({ status: 201, resource: { name: decision.data.name } }),
  };

  it('finds the handler registered under a record type, and none for another type', async () => {
    const decision = { data: { tag_id: 7 } } as Decision<unknown>;
    await expect(handlerFor(handlers, TAG_REQUEST_TYPES.delete)!(decision)).resolves.toEqual({
      status: 204,
      resource: { id: 7 },
    });
    expect(handlerFor(handlers, TAG_REQUEST_TYPES.update)).toBeUndefined();
    expect(handlerFor(handlers, 'constructor')).toBeUndefined();
  });

  it('does not compile with a handler for another payload', () => {
    const misfiled: RequestHandlers<typeof TAG_REQUEST_TYPES.delete> = {
      // @ts-expect-error the delete payload has no contacts
      [TAG_REQUEST_TYPES.delete]: (decision: Decision<ContactBatchUpsertRequestedV1>) =>
        Promise.resolve({ status: 200, resource: { count: decision.data.contacts.length } }),
    };
    expect(Object.keys(misfiled)).toEqual([TAG_REQUEST_TYPES.delete]);
  });
});

describe('requestEnvelope', () => {
  it('makes the envelope of a request with the payload of its type', () => {
    const envelope = requestEnvelope(
      CONTACT_REQUEST_TYPES.channelLink,
      { contact_id: 3, channel: 'telegram', external_id: '+4915112345678' },
      { source: 'gateway', workspaceid: '9', id: '0b9f5d0e-3b71-4d9a-8d0e-6b8d5cfa0b11' },
    );
    expect(envelope).toMatchObject({
      id: '0b9f5d0e-3b71-4d9a-8d0e-6b8d5cfa0b11',
      type: CONTACT_REQUEST_TYPES.channelLink,
      correlationid: '0b9f5d0e-3b71-4d9a-8d0e-6b8d5cfa0b11',
      data: { contact_id: 3, channel: 'telegram' },
    });
    requestEnvelope(
      CONTACT_REQUEST_TYPES.channelLink,
      // @ts-expect-error a tag payload under the channel link type does not compile
      { tag_id: 3 },
      { source: 'gateway', workspaceid: '9' },
    );
  });
});
