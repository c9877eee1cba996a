export * from './automations.records';
export * from './workflow-definition';
export * from './run.records';
