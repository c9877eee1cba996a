import type { RequestPayloads, RequestRecord, RequestType } from '@cms/contracts';
import { EventPattern } from '@nestjs/microservices';

import type { Answer, Decision } from './request-decision';

/** A consumer method for request records of type `T`: the record it takes carries that type's payload. */
export type RequestMethod<T extends RequestType> = (
  record: RequestRecord<T>,
  context: unknown,
) => Promise<void>;

/**
 * `@EventPattern(type)` for a request type, typed: the method's record must be `RequestRecord<type>`,
 * so a method that reads another request's payload under this type does not compile. `transport`
 * picks the consumer of a service that runs several.
 */
export function DecidesRequest<T extends RequestType>(type: T, transport?: symbol) {
  const pattern = transport === undefined ? EventPattern(type) : EventPattern(type, transport);
  return (
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<RequestMethod<T>>,
  ): void => {
    pattern(target, key, descriptor);
  };
}

/** The use case deciding each request type in `K`, given a decision of that type's payload. */
export type RequestHandlers<K extends RequestType, D extends Decision<unknown> = Decision<unknown>> = {
  readonly [T in K]: (decision: D & Decision<RequestPayloads[T]>) => Promise<Answer>;
};

/**
 * The handler of `record` in `handlers`, when it names one. The map is typed per request type, so a
 * handler registered under a type it cannot decide does not compile.
 */
export function handlerFor<K extends RequestType, D extends Decision<unknown>>(
  handlers: RequestHandlers<K, D>,
  type: string,
): ((decision: D) => Promise<Answer>) | undefined {
  return Object.hasOwn(handlers, type)
    ? (handlers[type as K] as unknown as (decision: D) => Promise<Answer>)
    : undefined;
}
