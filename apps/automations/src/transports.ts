/**
 * The service runs three consumers, each a KafkaRecordServer with a transport id of its own, so that
 * `@EventPattern(type, <transport>)` hands a record type to exactly one of them.
 */
export const REQUESTS_TRANSPORT = Symbol('automations:requests');
export const CONTACTS_TRANSPORT = Symbol('automations:contacts');
export const MESSAGING_TRANSPORT = Symbol('automations:messaging');
