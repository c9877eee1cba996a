export * from './data-source';
export * from './bigint-id';
