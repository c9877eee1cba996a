export * from './automations.records';
export * from './workflow-definition';
