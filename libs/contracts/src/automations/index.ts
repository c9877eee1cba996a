export * from './automations.records';
export * from './workflow-definition';
export * from './run.records';
export * from './bot-definition';
export * from './bot.records';
