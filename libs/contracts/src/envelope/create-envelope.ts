import { randomUUID } from 'node:crypto';

import type { Envelope } from './envelope';

export interface EnvelopeInit<TData> {
  type: string;
  source: string;
  workspaceid: string;
  data: TData;
  dataversion?: number;
  /** Defaults to a random UUID: pass a deterministic one (uuidv5) from decision code. */
  id?: string;
  /** Defaults to now: decision code passes the time of the record it decides. */
  time?: string;
  subject?: string;
  correlationid?: string;
  causationid?: string;
}

export function createEnvelope<TData>(init: EnvelopeInit<TData>): Envelope<TData> {
  const id = init.id ?? randomUUID();
  const envelope: Envelope<TData> = {
    specversion: '1.0',
    id,
    type: init.type,
    source: init.source,
    time: init.time ?? new Date().toISOString(),
    workspaceid: init.workspaceid,
    correlationid: init.correlationid ?? id,
    dataversion: init.dataversion ?? 1,
    data: init.data,
  };
  if (init.subject !== undefined) envelope.subject = init.subject;
  if (init.causationid !== undefined) envelope.causationid = init.causationid;
  return envelope;
}
