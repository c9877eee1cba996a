export * from './system';
export * from './private-stack';
export * from './messaging-system';
