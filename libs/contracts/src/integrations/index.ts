export * from './integration.bodies';
export * from './integration.records';
