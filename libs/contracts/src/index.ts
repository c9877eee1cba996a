export * from './topics';
export * from './envelope/envelope';
export * from './envelope/create-envelope';
export * from './envelope/deterministic-id';
export * from './registry/record-type-registry';
export * from './outcomes/outcome.records';
export * from './dead-letters/dead-letter.records';
