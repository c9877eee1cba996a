export * from './env-reader';
export * from './services';
