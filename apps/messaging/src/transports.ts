/**
 * The service runs two consumers, each a KafkaRecordServer with a transport id of its own, so that
 * `@EventPattern(type, <transport>)` hands a record type to exactly one of them.
 */
export const REQUESTS_TRANSPORT = Symbol('messaging:requests');
export const CONTACTS_TRANSPORT = Symbol('messaging:contacts');
