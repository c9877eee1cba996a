import { createEnvelope } from '../envelope/create-envelope';
import { deterministicId } from '../envelope/deterministic-id';
import type { Envelope } from '../envelope/envelope';
import {
  OUTCOME_TYPES,
  type OutcomeError,
  type RequestAcceptedV1,
  type RequestRejectedV1,
} from './outcome.records';

type Answered = Pick<Envelope, 'id' | 'workspaceid' | 'correlationid' | 'time'>;

/** The outcome answering `request`: same correlation id, an id derived from the request's, its time. */
function outcome<T>(request: Answered, source: string, type: string, data: T): Envelope<T> {
  return createEnvelope({
    id: deterministicId(request.id, 'outcome'),
    type,
    source,
    workspaceid: request.workspaceid,
    correlationid: request.correlationid,
    causationid: request.id,
    time: request.time,
    data,
  });
}

export function acceptedOutcome(
  request: Answered,
  source: string,
  status: 200 | 201 | 202 | 204,
  resource?: Record<string, unknown>,
): Envelope<RequestAcceptedV1> {
  return outcome(request, source, OUTCOME_TYPES.accepted, {
    status,
    ...(resource !== undefined ? { resource } : {}),
  });
}

export function rejectedOutcome(
  request: Answered,
  source: string,
  status: number,
  errors: OutcomeError[],
): Envelope<RequestRejectedV1> {
  return outcome(request, source, OUTCOME_TYPES.rejected, { status, errors });
}
