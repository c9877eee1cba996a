export * from './filter-criteria';
export * from './segments.records';
