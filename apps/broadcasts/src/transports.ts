/**
 * The service runs three consumers, each a KafkaRecordServer with a transport id of its own, so that
 * `@EventPattern(type, <transport>)` hands a record type to exactly one of them.
 */
export const REQUESTS_TRANSPORT = Symbol('broadcasts:requests');
export const SEGMENTS_TRANSPORT = Symbol('broadcasts:segments');
export const MESSAGING_TRANSPORT = Symbol('broadcasts:messaging');
