import { createEnvelope, deterministicId, type DecodedRecord } from '@cms/contracts';
import type { RecordContext } from '@cms/kafka';

import { SOURCE } from '../config';

/**
 * Appends an input of a send (BROADCAST_INPUT_TYPES) to the requests topic, where it is decided in one
 * order with the pause, resume and cancel requests it meets. Its id comes from the send and `purpose`,
 * so the same input made twice is decided once; below the replay horizon `emit` drops it, as an
 * earlier life of the service appended it.
 */
export function emitSendInput(
  context: Pick<RecordContext, 'emit'>,
  requestsTopic: string,
  cause: DecodedRecord,
  type: string,
  sendId: number,
  purpose: string,
  data: object,
): void {
  context.emit(
    requestsTopic,
    createEnvelope({
      id: deterministicId('notification-send', sendId, purpose),
      type,
      source: SOURCE,
      workspaceid: cause.workspaceid,
      correlationid: cause.correlationid,
      causationid: cause.id,
      time: cause.time,
      subject: String(sendId),
      data,
    }),
  );
}
