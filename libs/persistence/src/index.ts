export * from './data-source';
export * from './bigint-id';
export * from './bulk-upsert';
