export * from './commit-signal';
export * from './infrastructure.module';
export * from './polled-worker';
export * from './rebuild-shares';
export * from './service-app';
export * from './service-definition';
export * from './service-http';
export * from './service-main';
