export * from './system';
export * from './private-stack';
