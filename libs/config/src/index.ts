export * from './env-reader';
export * from './services';
export * from './memory';
