import { acceptedOutcome, CONTACT_REQUEST_TYPES, type Envelope } from '@cms/contracts';
import { JsonApiException } from '@cms/http';
import { MAX_RECORD_BYTES, type BatchingProducer, type OutcomeWaiter } from '@cms/kafka';
import type { Message } from 'kafkajs';
import { pino } from 'pino';

import type { GatewayConfig } from '../config';
import { WritePathService, type WriteRequest } from './write-path.service';

const TIMEOUT_MS = 100;
const config = { outcomeTimeoutMs: TIMEOUT_MS, topics: { requests: 'requests' } } as GatewayConfig;

/** Waits the way OutcomeWaiter does: settled by `answer`, or undefined after the timeout. */
class FakeWaiter {
  private readonly waiting = new Map<string, (outcome: Envelope | undefined) => void>();

  wait(correlationId: string, timeoutMs: number): Promise<Envelope | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(undefined), timeoutMs);
      this.waiting.set(correlationId, (outcome) => {
        clearTimeout(timer);
        resolve(outcome);
      });
    });
  }

  cancel(correlationId: string): void {
    this.waiting.get(correlationId)?.(undefined);
  }

  answer(request: Envelope): void {
    this.waiting.get(request.correlationid)?.(acceptedOutcome(request, 'contacts', 201, { id: 7 }));
  }
}

function service(send: (topic: string, messages: Message[]) => Promise<unknown>, waiter = new FakeWaiter()) {
  const producer = { send } as unknown as BatchingProducer;
  return new WritePathService(
    config,
    producer,
    waiter as unknown as OutcomeWaiter,
    pino({ level: 'silent' }),
  );
}

const request: WriteRequest<typeof CONTACT_REQUEST_TYPES.upsert> = {
  type: CONTACT_REQUEST_TYPES.upsert,
  workspaceId: 1,
  data: { name: 'Ada', contact_id: 7, contact_limit: 1000 },
};

async function failure(promise: Promise<unknown>): Promise<JsonApiException> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof JsonApiException))
    throw new Error(`expected a JsonApiException, got ${String(error)}`);
  return error;
}

describe('WritePathService', () => {
  it('answers with the outcome of the record it produced', async () => {
    const waiter = new FakeWaiter();
    const writePath = service(async (_, [message]) => {
      waiter.answer(JSON.parse(String(message!.value)) as Envelope);
      return [];
    }, waiter);

    await expect(writePath.submit(request)).resolves.toEqual({ status: 201, resource: { id: 7 } });
  });

  it('answers 503 with Retry-After at the outcome timeout while the broker has not taken the record', async () => {
    const started = Date.now();
    const error = await failure(service(() => new Promise(() => undefined)).submit(request));

    expect(error.getStatus()).toBe(503);
    expect(error.headers).toEqual({ 'Retry-After': '5' });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 10);
  });

  it('answers 503 when the record could not be produced', async () => {
    const error = await failure(
      service(() => Promise.reject(new Error('producer is not connected'))).submit(request),
    );

    expect(error.getStatus()).toBe(503);
    expect(error.errors[0]!.detail).toBe('The request could not be recorded; retry later.');
  });

  it('answers 413 and produces nothing when the request written out as JSON is over the record bound', async () => {
    const sent: Message[] = [];
    // `1e20` is written back as 21 digits: numbers enough to pass the bound once written out.
    const data = {
      ...request.data,
      data: { numbers: new Array<number>(Math.ceil(MAX_RECORD_BYTES / 21)).fill(1e20) },
    };
    const error = await failure(
      service(async (_, messages) => {
        sent.push(...messages);
        return [];
      }).submit({ ...request, data }),
    );

    expect(error.getStatus()).toBe(413);
    expect(error.errors[0]!.detail).toMatch(/too large to record/);
    expect(sent).toEqual([]);
  });
});
