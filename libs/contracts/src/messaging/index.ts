export * from './channel.bodies';
export * from './message.bodies';
export * from './messaging.records';
export * from './template.bodies';
export * from './failure-codes';
