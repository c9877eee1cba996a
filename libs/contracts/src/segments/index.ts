export * from './filter-criteria';
export * from './filter-operands';
export * from './segments.records';
