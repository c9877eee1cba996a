export * from './webhook-event-types';
export * from './webhook-endpoint.bodies';
export * from './webhook-secret';
export * from './webhook.records';
export * from './webhook.resources';
