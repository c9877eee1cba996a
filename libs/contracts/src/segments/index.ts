export * from './filter-criteria';
